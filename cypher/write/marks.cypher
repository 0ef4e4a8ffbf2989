// Confirm / reject / retract assertions: record time only, nothing is deleted.
UNWIND $marks AS m
MATCH (f:Fact {tenant: $tenant, uid: m.uid})
SET f.confirmed_at = coalesce(m.confirmed_at, f.confirmed_at),
    f.rejected_at = coalesce(m.rejected_at, f.rejected_at),
    f.retracted_at = coalesce(m.retracted_at, f.retracted_at)
WITH f, m
MATCH (:Entity)-[r:HAS_FACT]->(f)
SET r.retracted_at = coalesce(m.retracted_at, m.rejected_at, r.retracted_at)
