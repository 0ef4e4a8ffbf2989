// Times arrive as ISO 8601 text and become DateTime here: the driver packs text far faster than temporal values.
// Episodes: who did what, where, in [start, end). Each comes FROM its source (the message that
// reports it), is BY the person (an Entity), and AT a place entity when one is named, so a Cypher
// walk can go from a person or a place to what happened there. An episode is not a fact: no
// HOLDS segments, no supersession. An entity made here carries $tenant_key (graphmem.core.tenant_key).
UNWIND $episodes AS p
MATCH (s:Source {tenant: $tenant, uid: p.source})
MERGE (who:Entity {tenant: $tenant, uid: p.who})
ON CREATE SET who.name = p.who, who.tenant_key = $tenant_key
CREATE (ep:Episode {tenant: $tenant, uid: p.uid, seq: p.seq, who: p.who, what: p.what, where: p.where,
                    start: datetime(p.start), end: datetime(p.end), evidence: p.evidence, source: p.source,
                    said_at: datetime(p.said_at), recorded_at: datetime(p.recorded_at), planned: p.planned})
CREATE (ep)-[:FROM]->(s)
CREATE (ep)-[:BY]->(who)
WITH ep, p
CALL (ep, p) {
  WITH ep, p WHERE p.where IS NOT NULL
  MERGE (place:Entity {tenant: $tenant, uid: p.where})
  ON CREATE SET place.name = p.where, place.kind = 'place', place.tenant_key = $tenant_key
  CREATE (ep)-[:AT]->(place)
}
