// graphmem bench graphiti: Graphiti's graph (its Entity nodes, RELATES_TO edges carrying valid_at /
// invalid_at) asked graphmem's as-of question by hand: which objects did the subject hold under this
// relation at $at. The query a developer would write against Graphiti's schema, using the range
// indexes Graphiti creates (Entity name and group_id). Not used by the store itself.
MATCH (s:Entity {name: $subject, group_id: $group})-[e:RELATES_TO {name: $relation}]->(o:Entity)
WHERE e.group_id = $group AND e.valid_at <= $at AND (e.invalid_at IS NULL OR e.invalid_at > $at)
RETURN o.name AS value
