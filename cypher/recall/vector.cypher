// recall/vector: the facts nearest to the task's embedding — by their own text, or by the text of
// the source they were drawn from. The indexes span tenants, so they are asked for more than
// needed ($k_facts, $k_sources: graphmem.recall.recall.vector_k, by the tenant's share of each index) and
// every hit is checked against $tenant; scope and time are enforced again by recall/candidates,
// which takes these ids as its vector leg.
CALL db.index.vector.queryNodes('fact_embedding', $k_facts, $vector) YIELD node, score
WITH node, score WHERE node.tenant = $tenant
RETURN node.uid AS fact, score
UNION ALL
CALL db.index.vector.queryNodes('source_embedding', $k_sources, $vector) YIELD node, score
WITH node, score WHERE node.tenant = $tenant
MATCH (f:Fact)-[:FROM]->(node)
RETURN f.uid AS fact, score
