// path: follow entity-valued topics from $start ($path = ['managed_by', 'home_city']), each hop
// answered at the same ($valid_at, $known_at), and return what the last topic holds.
// RELATED edges are the entity-to-entity twins of HOLDS segments, so every hop is one filtered
// relationship. A hop with a conflict does not resolve (the path has no single answer).
// Browser:  :param tenant => 't-hop'
//           :param start => 'apollo'
//           :param path => ['managed_by', 'home_city']
//           :param env => ''
//           :param valid_at => datetime('2026-07-15T00:00:00Z')
//           :param known_at => datetime()
// Times come from graphmem as {epochSeconds, nanosecond} maps (graphmem.store.projection.values.instant: the
// cheapest to send and to build); DateTime or ISO text work too, as datetime() takes all three.
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
MATCH (start:Entity {tenant: $tenant, uid: $start})
MATCH p = (start)-[rels:RELATED*0..8]->(last:Entity)
WHERE size(rels) = size($path) - 1
  AND all(i IN range(0, size(rels) - 1) WHERE
        rels[i].topic = $path[i] AND rels[i].env = $env AND NOT rels[i].conflict
        AND rels[i].valid_from <= valid_at AND (rels[i].valid_to IS NULL OR valid_at < rels[i].valid_to)
        AND rels[i].recorded_at <= known_at AND (rels[i].superseded_at IS NULL OR known_at < rels[i].superseded_at)
        AND (rels[i].expires_at IS NULL OR known_at < rels[i].expires_at))
MATCH (last)-[h:HOLDS]->(f:Fact)
WHERE h.topic = $path[size($path) - 1] AND h.env = $env
  AND h.valid_from <= valid_at AND (h.valid_to IS NULL OR valid_at < h.valid_to)
  AND h.recorded_at <= known_at AND (h.superseded_at IS NULL OR known_at < h.superseded_at)
  AND (h.expires_at IS NULL OR known_at < h.expires_at)
RETURN [x IN nodes(p) | x.uid] AS hops, f.uid AS fact, f.value AS value, f.is_entity AS is_entity,
       h.conflict AS conflict, f.source AS source, f.authority AS authority, f.status AS status,
       toString(h.valid_from) AS valid_from, toString(h.valid_to) AS valid_to
ORDER BY f.value
