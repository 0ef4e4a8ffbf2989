// why: the fact and source behind the answer at ($valid_at, $known_at), the fact that stood just
// before its change point (what it replaced), the SUPERSEDES links recorded when it was written,
// and the sources that quote its source.
// Browser:  :param tenant => 't-port'
//           :param subject => 'deploy'
//           :param topic => 'port'
//           :param env => ''
//           :param valid_at => datetime('2026-11-01T10:40:00Z')
//           :param known_at => datetime()
// Times come from graphmem as {epochSeconds, nanosecond} maps (graphmem.store.projection.values.instant: the
// cheapest to send and to build); DateTime or ISO text work too, as datetime() takes all three.
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
MATCH (e:Entity {tenant: $tenant, uid: $subject})-[h:HOLDS]->(f:Fact)
WHERE h.topic = $topic AND h.env = $env
  AND h.valid_from <= valid_at AND (h.valid_to IS NULL OR valid_at < h.valid_to)
  AND h.recorded_at <= known_at AND (h.superseded_at IS NULL OR known_at < h.superseded_at)
  AND (h.expires_at IS NULL OR known_at < h.expires_at)
OPTIONAL MATCH (f)-[:FROM]->(s:Source)
OPTIONAL MATCH (e)-[p:HOLDS]->(prev:Fact)
WHERE p.topic = $topic AND p.env = $env AND prev <> f
  AND p.valid_from < f.valid_from AND (p.valid_to IS NULL OR p.valid_to >= f.valid_from)
  AND p.recorded_at <= known_at AND (p.superseded_at IS NULL OR known_at < p.superseded_at)
  AND (p.expires_at IS NULL OR known_at < p.expires_at)
OPTIONAL MATCH (q:Source)-[:QUOTES]->(s)
WITH f, h, s, prev, collect(DISTINCT q.uid) AS quoted_by
OPTIONAL MATCH (f)-[:SUPERSEDES]->(old:Fact)
RETURN f.uid AS fact, f.value AS value, h.conflict AS conflict, f.source AS source, s.text AS text,
       prev.uid AS supersedes_fact, prev.source AS supersedes_source, prev.value AS supersedes_value,
       quoted_by, collect(DISTINCT old.uid) AS superseded_when_written, f.recorded_at AS recorded_at,
       s.relayed_by AS relayed_by
ORDER BY recorded_at DESC
