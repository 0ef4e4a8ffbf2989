// Times arrive as ISO 8601 text and become DateTime here: the driver packs text far faster than temporal values.
// Confirm / reject / retract assertions: record time only, nothing is deleted.
UNWIND $marks AS m
MATCH (f:Fact {tenant: $tenant, uid: m.uid})
SET f.confirmed_at = coalesce(datetime(m.confirmed_at), f.confirmed_at),
    f.rejected_at = coalesce(datetime(m.rejected_at), f.rejected_at),
    f.retracted_at = coalesce(datetime(m.retracted_at), f.retracted_at)
WITH f, m
MATCH (:Entity)-[r:HAS_FACT]->(f)
SET r.retracted_at = coalesce(datetime(m.retracted_at), datetime(m.rejected_at), r.retracted_at)
