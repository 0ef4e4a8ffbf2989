// Conflicts that hold now (or at $valid_at, as known at $known_at): two or more different values
// from equally trusted sources at the same change point. Shown, never resolved silently.
// Browser:  :param tenant => 'demo'
//           :param valid_at => datetime()
//           :param known_at => datetime()
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
MATCH (e:Entity {tenant: $tenant})-[h:HOLDS]->(f:Fact)
WHERE e.uid IS NOT NULL AND h.conflict
  AND h.valid_from <= valid_at AND (h.valid_to IS NULL OR valid_at < h.valid_to)
  AND h.recorded_at <= known_at AND (h.superseded_at IS NULL OR known_at < h.superseded_at)
RETURN e.uid AS subject, h.topic AS topic, h.env AS env, collect(f.value) AS values,
       collect(f.source) AS sources
ORDER BY subject, topic
