// graphmem bench's raw limit: the same nodes and edges graphmem's bulk ingest writes for entity-valued
// facts (entities, fact, HAS_FACT, VALUE, HOLDS, RELATED, ledger event, APPLIED_TO), in one hand-written
// UNWIND … CREATE per chunk, with the same wire format for times. Not used by the store itself.
UNWIND $rows AS r
WITH r, datetime(r.valid_from) AS vf, datetime(r.valid_to) AS vt, datetime($at) AS at
MERGE (e:Entity {tenant: $tenant, uid: r.subject})
ON CREATE SET e.tenant_key = $tenant_key
MERGE (o:Entity {tenant: $tenant, uid: r.object})
ON CREATE SET o.tenant_key = $tenant_key
CREATE (f:Fact {tenant: $tenant, tenant_key: $tenant_key, uid: r.uid, seq: r.seq, kind: 'set', subject: r.subject, topic: r.topic,
                env: '', value: r.object, is_entity: true, valid_from: vf, valid_to: vt,
                recorded_at: at, authority: 'L1', status: 'confirmed', quoted: false, said_at: at})
CREATE (e)-[:HAS_FACT {valid_from: vf, valid_to: vt, recorded_at: at}]->(f)
CREATE (f)-[:VALUE {valid_from: vf, valid_to: vt, recorded_at: at}]->(o)
CREATE (e)-[:HOLDS {seg: r.uid, topic: r.topic, env: '', valid_from: vf, valid_to: vt,
                    recorded_at: at, conflict: false}]->(f)
CREATE (e)-[:RELATED {seg: r.uid, topic: r.topic, env: '', valid_from: vf, valid_to: vt,
                      recorded_at: at, conflict: false, fact: r.uid}]->(o)
CREATE (v:Event {tenant: $tenant, seq: r.seq, op: 'set', payload: r.payload, recorded_at: at, facts: [r.uid]})
CREATE (v)-[:APPLIED_TO]->(f)
