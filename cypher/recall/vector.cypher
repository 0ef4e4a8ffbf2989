// recall/vector: the facts nearest to the task's embedding — by their own text, or by the text of
// the source they were drawn from. The indexes span tenants and Neo4j 5 cannot filter inside a
// vector search, so each is asked for more than needed ($k_facts, $k_sources:
// graphmem.recall.vectors.vector_k, by the tenant's share of each index) and the hits are kept to
// $tenant. That alone is not exact: other tenants' nearer vectors can fill every place. So when
// fewer than $limit of the tenant's are left (some may have been hidden), the index is asked again
// deeper ($k_deep_facts, $k_deep_sources: graphmem.recall.vectors.deep_k), and when that is still
// short the tenant's own embedded nodes are scored one by one — found through the (tenant, uid) key
// index, scored with vector.similarity.cosine: exact by construction, bounded by the tenant's size
// (docs/governance.md, "Tenants"). A tenant small enough that the scan costs less than the index
// ($scan_facts, $scan_sources: graphmem.recall.vectors.scan_first) is scanned at once. Scope and
// time are enforced again by recall/candidates, which takes these ids as its vector leg. Each side
// sends only its best $limit facts: recall.vectors.vector_leg keeps the best $limit of both, which
// those hold (a deeper ask held ~700 of a 10k tenant's sources).
// Browser:  :param tenant => 'conv-26'
//           :param vector => null
//           :param limit => 40
//           :param k_facts => 400
//           :param k_sources => 400
//           :param k_deep_facts => 4000
//           :param k_deep_sources => 4000
//           :param scan_facts => false
//           :param scan_sources => false
CALL () {
  WITH 1 AS one WHERE NOT $scan_facts
  CALL db.index.vector.queryNodes('fact_embedding', $k_facts, $vector) YIELD node, score
  WITH node, score WHERE node.tenant = $tenant
  ORDER BY score DESC
  RETURN collect({uid: node.uid, score: score})[0..$limit] AS near
}
CALL (near) {
  WITH near WHERE size(near) < $limit AND $k_deep_facts > $k_facts AND NOT $scan_facts
  CALL db.index.vector.queryNodes('fact_embedding', $k_deep_facts, $vector) YIELD node, score
  WITH node, score WHERE node.tenant = $tenant
  ORDER BY score DESC
  RETURN collect({uid: node.uid, score: score})[0..$limit] AS deep
}
WITH CASE WHEN size(near) >= $limit THEN near ELSE deep END AS near
CALL (near) {
  WITH near WHERE size(near) >= $limit
  UNWIND near AS hit
  RETURN hit.uid AS fact, hit.score AS score
  UNION ALL
  // an UNWIND, not a WHERE: the planner moves a WHERE on `near` above the seek, which then walks
  // every key of the tenant's on each call, short or not
  UNWIND CASE WHEN size(near) < $limit THEN [true] ELSE [] END AS short
  MATCH (f:Fact {tenant: $tenant})
  WHERE f.uid IS NOT NULL AND f.embedding IS NOT NULL
  WITH f, vector.similarity.cosine(f.embedding, $vector) AS score
  ORDER BY score DESC, f.uid
  LIMIT $limit
  RETURN f.uid AS fact, score
}
RETURN fact, score
UNION ALL
CALL () {
  WITH 1 AS one WHERE NOT $scan_sources
  CALL db.index.vector.queryNodes('source_embedding', $k_sources, $vector) YIELD node, score
  WITH node, score WHERE node.tenant = $tenant
  RETURN collect({node: node, score: score}) AS near
}
CALL (near) {
  WITH near WHERE size(near) < $limit AND $k_deep_sources > $k_sources AND NOT $scan_sources
  CALL db.index.vector.queryNodes('source_embedding', $k_deep_sources, $vector) YIELD node, score
  WITH node, score WHERE node.tenant = $tenant
  RETURN collect({node: node, score: score}) AS deep
}
WITH CASE WHEN size(near) >= $limit THEN near ELSE deep END AS near
CALL (near) {
  WITH near WHERE size(near) >= $limit
  UNWIND near AS hit
  RETURN hit.node AS node, hit.score AS score
  UNION ALL
  UNWIND CASE WHEN size(near) < $limit THEN [true] ELSE [] END AS short
  MATCH (s:Source {tenant: $tenant})
  WHERE s.uid IS NOT NULL AND s.embedding IS NOT NULL
  WITH s, vector.similarity.cosine(s.embedding, $vector) AS score
  ORDER BY score DESC, s.uid
  LIMIT $limit
  RETURN s AS node, score
}
MATCH (f:Fact)-[:FROM]->(node)
WITH f, score
ORDER BY score DESC
LIMIT $limit
RETURN f.uid AS fact, score
