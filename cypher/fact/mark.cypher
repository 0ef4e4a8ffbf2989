// Record a confirm / reject / retract on an assertion: record time only, nothing is deleted.
MATCH (f:Fact {tenant: $tenant, uid: $uid})
SET f.confirmed_at = coalesce($confirmed_at, f.confirmed_at),
    f.rejected_at = coalesce($rejected_at, f.rejected_at),
    f.retracted_at = coalesce($retracted_at, f.retracted_at)
WITH f
MATCH (:Entity)-[r:HAS_FACT]->(f)
SET r.retracted_at = coalesce($retracted_at, $rejected_at, r.retracted_at)
