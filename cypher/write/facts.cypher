// Times arrive as ISO 8601 text and become DateTime here: the driver packs text far faster than temporal values.
// Create assertions (sets and revokes) with their links: the subject entity (HAS_FACT carries the
// assertion's own intervals), the topic, the source, and for an entity value the value entity.
// A fact's own new timeline segments (p.segments: the segments this batch opened on a fact it
// creates, the common case of a load) are created here too, from the nodes this row already
// holds: HOLDS subject -> fact, and for an entity-valued fact RELATED subject -> value entity with
// the same bounds and segment id. Segments on facts stored before go through write/add_segments.
// The batch's topics are merged once ($topic_names; a row names its own by p.topic_index), not
// once a row: a batch of a thousand facts names a few dozen topics.
// A time sent as the same text as one parsed already is not parsed again (a said_at equal to the
// recorded_at, a segment's bounds equal to its fact's): parsing times was ~4% of the server's CPU
// samples in a bulk load (docs/scaling.md).
// A topic says whether any of its facts can expire ($expiring_topics: those with an expires_at
// in this batch): as_of looks for expired values only in a topic that has some. Only a rebuild,
// which writes every topic anew, unsets it; a topic written before the mark existed has none
// (null: as_of looks). Set once, not on every batch that adds such a fact.
// Facts and the entities made here carry $tenant_key, the tenant's exact token in the full-text
// indexes (graphmem.core.tenant_key).
CALL () {
  UNWIND $topic_names AS name
  MERGE (t:Topic {tenant: $tenant, name: name})
  ON CREATE SET t.cardinality = 'one', t.expiring = false
  FOREACH (_ IN CASE WHEN name IN $expiring_topics AND NOT coalesce(t.expiring, false) THEN [1] ELSE [] END |
    SET t.expiring = true)
  RETURN collect(t) AS topics
}
UNWIND $facts AS p
WITH p, topics[p.topic_index] AS t, datetime(p.valid_from) AS vf, datetime(p.valid_to) AS vt,
     datetime(p.recorded_at) AS rec
MERGE (e:Entity {tenant: $tenant, uid: p.subject})
ON CREATE SET e.name = p.subject, e.tenant_key = $tenant_key
CREATE (f:Fact {tenant: $tenant, tenant_key: $tenant_key, uid: p.uid, seq: p.seq, kind: p.kind, subject: p.subject, topic: p.topic,
                env: p.env, value: p.value, is_entity: p.is_entity, valid_from: vf,
                valid_to: vt, recorded_at: rec, authority: p.authority,
                session: p.session, status: p.status, confidence: p.confidence, ref: p.ref,
                author: p.author,
                said_at: CASE p.said_at WHEN p.recorded_at THEN rec ELSE datetime(p.said_at) END,
                quoted: p.quoted, source: p.source, evidence: p.evidence, expires_at: datetime(p.expires_at)})
CREATE (e)-[:HAS_FACT {valid_from: vf, valid_to: vt, recorded_at: rec}]->(f)
CREATE (f)-[:ABOUT]->(t)
WITH e, f, p, vf, vt, rec
CALL (f, p) {
  WITH f, p WHERE p.source IS NOT NULL
  MATCH (s:Source {tenant: $tenant, uid: p.source})
  CREATE (f)-[:FROM]->(s)
}
WITH e, f, p, vf, vt, rec, coalesce(p.is_entity, false) AND p.kind = 'set' AS valued
// exactly one row back for every fact: its value entity, or null
CALL (f, p, vf, vt, rec, valued) {
  WITH f, p, vf, vt, rec WHERE valued
  MERGE (o:Entity {tenant: $tenant, uid: p.value})
  ON CREATE SET o.name = p.value, o.tenant_key = $tenant_key
  CREATE (f)-[:VALUE {valid_from: vf, valid_to: vt, recorded_at: rec}]->(o)
  RETURN o
  UNION
  WITH valued WHERE NOT valued
  RETURN null AS o
}
CALL (e, f, o, p, vf, vt, rec) {
  UNWIND p.segments AS s
  WITH e, f, o, s,
       CASE s.valid_from WHEN p.valid_from THEN vf ELSE datetime(s.valid_from) END AS s_vf,
       CASE s.valid_to WHEN p.valid_to THEN vt ELSE datetime(s.valid_to) END AS s_vt,
       CASE s.recorded_at WHEN p.recorded_at THEN rec ELSE datetime(s.recorded_at) END AS s_rec,
       datetime(s.superseded_at) AS sup, datetime(s.expires_at) AS exp
  CREATE (e)-[:HOLDS {seg: s.seg, topic: s.topic, env: s.env, valid_from: s_vf, valid_to: s_vt,
                      recorded_at: s_rec, superseded_at: sup, conflict: s.conflict, expires_at: exp}]->(f)
  WITH e, f, o, s, s_vf, s_vt, s_rec, sup, exp WHERE o IS NOT NULL
  CREATE (e)-[:RELATED {seg: s.seg, topic: s.topic, env: s.env, valid_from: s_vf, valid_to: s_vt,
                        recorded_at: s_rec, superseded_at: sup, conflict: s.conflict, fact: f.uid,
                        expires_at: exp}]->(o)
}
