// history: the valid-time timeline of one (subject, topic, env) as known at $known_at, in order.
// Revoked stretches have no segment. The client merges consecutive repeats.
// Browser:  :param tenant => 't-port'
//           :param subject => 'deploy'
//           :param topic => 'port'
//           :param env => ''
//           :param known_at => datetime()
// Times come from graphmem as {epochSeconds, nanosecond} maps (graphmem.store.projection.values.instant: the
// cheapest to send and to build); DateTime or ISO text work too, as datetime() takes all three.
WITH datetime($known_at) AS known_at
MATCH (e:Entity {tenant: $tenant, uid: $subject})-[h:HOLDS]->(f:Fact)
WHERE h.topic = $topic AND h.env = $env
  AND h.recorded_at <= known_at AND (h.superseded_at IS NULL OR known_at < h.superseded_at)
  AND (h.expires_at IS NULL OR known_at < h.expires_at)
RETURN f.uid AS fact, f.value AS value, h.conflict AS conflict, f.source AS source,
       toString(h.valid_from) AS valid_from, toString(h.valid_to) AS valid_to
ORDER BY h.valid_from, f.value
