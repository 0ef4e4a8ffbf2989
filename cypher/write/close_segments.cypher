// Times arrive as ISO 8601 text and become DateTime here: the driver packs text far faster than temporal values.
// Give stored segments a new end in record time (c.at; null: open again — a scheduled end that a
// later event cancelled). They stay for known_at reads. A segment whose end is at or before its
// start was never visible to any known_at, so it is deleted instead.
UNWIND $closes AS c
MATCH (e:Entity {tenant: $tenant, uid: c.subject})-[h:HOLDS {seg: c.seg}]->(:Fact)
OPTIONAL MATCH (e)-[r:RELATED {seg: c.seg}]->(:Entity)
WITH h, r, datetime(c.at) AS at, c.at IS NOT NULL AND h.recorded_at >= datetime(c.at) AS unseen
FOREACH (x IN CASE WHEN unseen THEN [h] ELSE [] END | DELETE x)
FOREACH (x IN CASE WHEN unseen AND r IS NOT NULL THEN [r] ELSE [] END | DELETE x)
FOREACH (x IN CASE WHEN unseen THEN [] ELSE [h] END | SET x.superseded_at = at)
FOREACH (x IN CASE WHEN unseen OR r IS NULL THEN [] ELSE [r] END | SET x.superseded_at = at)
