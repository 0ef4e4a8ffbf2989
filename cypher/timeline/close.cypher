// End segments in record time (they stay for known_at queries). A segment born at this very
// record time was never visible to any known_at, so it is deleted instead.
MATCH (e:Entity {tenant: $tenant, uid: $subject})-[h:HOLDS]->(:Fact)
WHERE h.seg IN $segs
OPTIONAL MATCH (e)-[r:RELATED {seg: h.seg}]->(:Entity)
WITH h, r, h.recorded_at = $recorded_at AS unseen
FOREACH (x IN CASE WHEN unseen THEN [h] ELSE [] END | DELETE x)
FOREACH (x IN CASE WHEN unseen AND r IS NOT NULL THEN [r] ELSE [] END | DELETE x)
FOREACH (x IN CASE WHEN unseen THEN [] ELSE [h] END | SET x.superseded_at = $recorded_at)
FOREACH (x IN CASE WHEN unseen OR r IS NULL THEN [] ELSE [r] END | SET x.superseded_at = $recorded_at)
