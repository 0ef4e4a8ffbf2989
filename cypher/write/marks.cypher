// Times arrive as ISO 8601 text and become DateTime here: the driver packs text far faster than temporal values.
// Confirm / reject / retract assertions, hold them back for an erase request or give them back:
// record time only, nothing is deleted. A confirmation by
// the fact's subject (or a delegate) promotes an L2 candidate: it reads as L1 from then on, and
// asserted_authority keeps what it was asserted as (for known_at reads before the confirmation).
UNWIND $marks AS m
MATCH (f:Fact {tenant: $tenant, uid: m.uid})
FOREACH (x IN CASE WHEN m.promoted_at IS NULL THEN [] ELSE [f] END |
  SET x.asserted_authority = x.authority, x.authority = 'L1', x.promoted_at = datetime(m.promoted_at))
SET f.confirmed_at = coalesce(datetime(m.confirmed_at), f.confirmed_at),
    f.rejected_at = coalesce(datetime(m.rejected_at), f.rejected_at),
    f.retracted_at = coalesce(datetime(m.retracted_at), f.retracted_at),
    f.withheld_at = coalesce(datetime(m.withheld_at), f.withheld_at),
    f.restored_at = coalesce(datetime(m.restored_at), f.restored_at)
WITH f, m
MATCH (:Entity)-[r:HAS_FACT]->(f)
SET r.retracted_at = coalesce(datetime(m.retracted_at), datetime(m.rejected_at), r.retracted_at)
