// Times arrive as ISO 8601 text and become DateTime here: the driver packs text far faster than temporal values.
// New timeline segments (HOLDS: subject -> fact). An entity-valued fact also gets a RELATED edge
// subject -> value entity with the same bounds and segment id, for multi-hop paths.
// Only segments on facts stored before: a new fact's segments are made by write/facts, with the
// same properties — change the two together.
UNWIND $segments AS s
WITH s, datetime(s.valid_from) AS vf, datetime(s.valid_to) AS vt, datetime(s.recorded_at) AS rec,
     datetime(s.superseded_at) AS sup
MATCH (e:Entity {tenant: $tenant, uid: s.subject})
MATCH (f:Fact {tenant: $tenant, uid: s.fact})
CREATE (e)-[:HOLDS {seg: s.seg, topic: s.topic, env: s.env, valid_from: vf, valid_to: vt,
                    recorded_at: rec, superseded_at: sup, conflict: s.conflict,
                    expires_at: datetime(s.expires_at)}]->(f)
WITH e, f, s, vf, vt, rec, sup
CALL (e, f, s, vf, vt, rec, sup) {
  WITH e, f, s, vf, vt, rec, sup WHERE f.is_entity
  MATCH (o:Entity {tenant: $tenant, uid: f.value})
  CREATE (e)-[:RELATED {seg: s.seg, topic: s.topic, env: s.env, valid_from: vf,
                        valid_to: vt, recorded_at: rec, superseded_at: sup,
                        conflict: s.conflict, fact: f.uid, expires_at: datetime(s.expires_at)}]->(o)
}
