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
// The walks, grown one topic at a time: a hop may take an edge an earlier hop took (x manages x,
// or a cycle), as following the topics one as_of at a time would. One MATCH pattern never takes
// a relationship twice, so a variable-length pattern would lose such walks (docs/semantics.md).
WITH valid_at, known_at, reduce(walks = [[start]], topic IN $path[..-1] |
  reduce(grown = [], w IN walks | grown + [x IN [last(w)] |
    [(x)-[r:RELATED]->(y:Entity)
     WHERE r.topic = topic AND r.env = $env AND NOT r.conflict
       AND r.valid_from <= valid_at AND (r.valid_to IS NULL OR valid_at < r.valid_to)
       AND r.recorded_at <= known_at AND (r.superseded_at IS NULL OR known_at < r.superseded_at)
       AND (r.expires_at IS NULL OR known_at < r.expires_at) | w + y]][0])) AS walks
UNWIND walks AS w
WITH valid_at, known_at, w, last(w) AS tip
MATCH (tip)-[h:HOLDS]->(f:Fact)
WHERE h.topic = $path[-1] AND h.env = $env
  AND h.valid_from <= valid_at AND (h.valid_to IS NULL OR valid_at < h.valid_to)
  AND h.recorded_at <= known_at AND (h.superseded_at IS NULL OR known_at < h.superseded_at)
  AND (h.expires_at IS NULL OR known_at < h.expires_at)
// One row a fact: walks that end on the same fact (a diamond, a loop) answer it once, by the first walk.
WITH f, h, collect(w)[0] AS w
RETURN [x IN w | x.uid] AS hops, f.uid AS fact, f.value AS value, f.is_entity AS is_entity,
       h.conflict AS conflict, f.source AS source, f.authority AS authority, f.status AS status,
       toString(h.valid_from) AS valid_from, toString(h.valid_to) AS valid_to
ORDER BY f.value
