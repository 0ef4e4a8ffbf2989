// Times arrive as ISO 8601 text and become DateTime here: the driver packs text far faster than temporal values.
// Create assertions (sets and revokes) with their links: the subject entity (HAS_FACT carries the
// assertion's own intervals), the topic, the source, and for an entity value the value entity.
UNWIND $facts AS p
WITH p, datetime(p.valid_from) AS vf, datetime(p.valid_to) AS vt, datetime(p.recorded_at) AS rec
MERGE (e:Entity {tenant: $tenant, uid: p.subject})
ON CREATE SET e.name = p.subject
MERGE (t:Topic {tenant: $tenant, name: p.topic})
ON CREATE SET t.cardinality = 'one'
CREATE (f:Fact {tenant: $tenant, uid: p.uid, seq: p.seq, kind: p.kind, subject: p.subject, topic: p.topic,
                env: p.env, value: p.value, is_entity: p.is_entity, valid_from: vf,
                valid_to: vt, recorded_at: rec, authority: p.authority,
                session: p.session, status: p.status, confidence: p.confidence, ref: p.ref,
                author: p.author, said_at: datetime(p.said_at), quoted: p.quoted, source: p.source,
                evidence: p.evidence, expires_at: datetime(p.expires_at)})
CREATE (e)-[:HAS_FACT {valid_from: vf, valid_to: vt, recorded_at: rec}]->(f)
CREATE (f)-[:ABOUT]->(t)
WITH f, p, vf, vt, rec
CALL (f, p) {
  WITH f, p WHERE p.source IS NOT NULL
  MATCH (s:Source {tenant: $tenant, uid: p.source})
  CREATE (f)-[:FROM]->(s)
}
CALL (f, p, vf, vt, rec) {
  WITH f, p, vf, vt, rec WHERE p.is_entity AND p.kind = 'set'
  MERGE (o:Entity {tenant: $tenant, uid: p.value})
  ON CREATE SET o.name = p.value
  CREATE (f)-[:VALUE {valid_from: vf, valid_to: vt, recorded_at: rec}]->(o)
}
