// Times arrive as ISO 8601 text and become DateTime here: the driver packs text far faster than temporal values.
// An erase request holds sources back (withheld_at) or gives them back (restored_at), in record
// time: recall's source items take no part while a source is withheld and not restored.
UNWIND $marks AS m
MATCH (s:Source {tenant: $tenant, uid: m.uid})
SET s.withheld_at = coalesce(datetime(m.withheld_at), s.withheld_at),
    s.restored_at = CASE WHEN m.withheld_at IS NOT NULL THEN null ELSE coalesce(datetime(m.restored_at), s.restored_at) END
