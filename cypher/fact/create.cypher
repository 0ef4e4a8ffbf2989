// Create one assertion (a set or a revoke) with its links: subject entity (HAS_FACT carries the
// assertion's own intervals), topic, source, and for an entity value the value entity.
MERGE (e:Entity {tenant: $tenant, uid: $subject})
ON CREATE SET e.name = $subject
MERGE (t:Topic {tenant: $tenant, name: $topic})
ON CREATE SET t.cardinality = 'one'
CREATE (f:Fact {tenant: $tenant, uid: $uid, seq: $seq, kind: $kind, subject: $subject, topic: $topic,
                env: $env, value: $value, is_entity: $is_entity, valid_from: $valid_from,
                valid_to: $valid_to, recorded_at: $recorded_at, authority: $authority,
                session: $session, status: $status, confidence: $confidence, ref: $ref,
                author: $author, said_at: $said_at, quoted: $quoted, source: $source,
                evidence: $evidence})
CREATE (e)-[:HAS_FACT {valid_from: $valid_from, valid_to: $valid_to, recorded_at: $recorded_at}]->(f)
CREATE (f)-[:ABOUT]->(t)
WITH f
CALL (f) {
  WITH f WHERE $source IS NOT NULL
  MATCH (s:Source {tenant: $tenant, uid: $source})
  CREATE (f)-[:FROM]->(s)
}
CALL (f) {
  WITH f WHERE $is_entity AND $kind = 'set'
  MERGE (o:Entity {tenant: $tenant, uid: $value})
  ON CREATE SET o.name = $value
  CREATE (f)-[:VALUE {valid_from: $valid_from, valid_to: $valid_to, recorded_at: $recorded_at}]->(o)
}
RETURN f.uid AS uid
