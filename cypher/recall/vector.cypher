// recall/vector: the facts nearest to the task's embedding. The index spans tenants, so it is asked
// for more than needed and every hit is checked against $tenant; scope and time are enforced again
// by recall/candidates, which takes these ids as its vector leg.
CALL db.index.vector.queryNodes('fact_embedding', $k, $vector) YIELD node, score
WITH node, score WHERE node.tenant = $tenant
RETURN node.uid AS fact, score
ORDER BY score DESC
