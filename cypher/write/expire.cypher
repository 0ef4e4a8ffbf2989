// The sweeper's bookkeeping: these facts reached their expiry (at the expire event's record time).
UNWIND $marks AS m
MATCH (f:Fact {tenant: $tenant, uid: m.uid})
SET f.expired_at = datetime(m.at)
