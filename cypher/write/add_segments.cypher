// New timeline segments (HOLDS: subject -> fact). An entity-valued fact also gets a RELATED edge
// subject -> value entity with the same bounds and segment id, for multi-hop paths.
UNWIND $segments AS s
MATCH (e:Entity {tenant: $tenant, uid: s.subject})
MATCH (f:Fact {tenant: $tenant, uid: s.fact})
CREATE (e)-[:HOLDS {seg: s.seg, topic: s.topic, env: s.env, valid_from: s.valid_from, valid_to: s.valid_to,
                    recorded_at: s.recorded_at, superseded_at: s.superseded_at, conflict: s.conflict}]->(f)
WITH e, f, s
CALL (e, f, s) {
  WITH e, f, s WHERE f.is_entity
  MATCH (o:Entity {tenant: $tenant, uid: f.value})
  CREATE (e)-[:RELATED {seg: s.seg, topic: s.topic, env: s.env, valid_from: s.valid_from,
                        valid_to: s.valid_to, recorded_at: s.recorded_at, superseded_at: s.superseded_at,
                        conflict: s.conflict, fact: f.uid}]->(o)
}
