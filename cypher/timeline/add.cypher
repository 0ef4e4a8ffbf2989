// New segments of the timeline, current from this record time. An entity-valued fact also gets
// a RELATED edge subject -> value entity with the same bounds (and segment id), for multi-hop paths.
MATCH (e:Entity {tenant: $tenant, uid: $subject})
UNWIND $segments AS seg
MATCH (f:Fact {tenant: $tenant, uid: seg.fact})
CREATE (e)-[:HOLDS {seg: seg.seg, topic: $topic, env: $env, valid_from: seg.valid_from,
                    valid_to: seg.valid_to, recorded_at: $recorded_at, superseded_at: null,
                    conflict: seg.conflict}]->(f)
WITH e, f, seg
CALL (e, f, seg) {
  WITH e, f, seg WHERE f.is_entity
  MATCH (o:Entity {tenant: $tenant, uid: f.value})
  CREATE (e)-[:RELATED {seg: seg.seg, topic: $topic, env: $env, valid_from: seg.valid_from,
                        valid_to: seg.valid_to, recorded_at: $recorded_at, superseded_at: null,
                        conflict: seg.conflict, fact: f.uid}]->(o)
}
