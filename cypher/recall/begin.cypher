// recall/begin: what context() needs to know about a tenant before it asks anything else, in one
// round trip — the ledger head (the version the context reports), how far the embeddings have
// caught up and with which embedder, and whether the tenant holds any facts or playbooks at all
// (a tenant of messages only skips the fact and playbook legs: fewer round trips, same answer).
// `held`: whether any fact ever reached the timeline (a HOLDS segment, live or closed). The fact
// legs search only segments, so a tenant whose facts are all unconfirmed candidates (what a model
// draws from chat: docs/design.md §5, L2) skips them too; `facts` still opens the candidate and session
// overlays, which read facts off the timeline.
// With the vectors the tenant has in each index, and how many each index holds in all, so the
// vector legs ask a shared index for only as many hits as the tenant's share of it needs
// (graphmem.recall.vectors.vector_k). Both from the count store or one node, never a scan: when
// the tenant's EmbeddingState is the database's only one, the indexes hold its vectors alone
// (only recall/embed_write writes vectors, and it keeps the writer's state), so its own counts are
// the indexes' population; otherwise the size of the label each index covers stands in — at least
// the population (facts and sources never embedded are not in the index), so the share it gives
// can only run low and the search asks for more, not fewer.
// Browser:  :param tenant => 'conv-26'
OPTIONAL MATCH (h:LedgerHead {tenant: $tenant})
OPTIONAL MATCH (x:EmbeddingState {tenant: $tenant})
WITH h, x, x IS NOT NULL AND COUNT { (:EmbeddingState) } = 1 AS alone
RETURN coalesce(h.seq, 0) AS head, x.seq AS embedded, x.embedder AS embedder,
       x.fact_vectors AS fact_vectors, x.source_vectors AS source_vectors,
       CASE WHEN alone THEN x.fact_vectors ELSE COUNT { (:Fact) } END AS fact_index,
       CASE WHEN alone THEN x.source_vectors ELSE COUNT { (:Source) } END AS source_index,
       EXISTS { MATCH (f:Fact {tenant: $tenant}) WHERE f.uid IS NOT NULL } AS facts,
       EXISTS { MATCH (e:Entity {tenant: $tenant}) WHERE e.uid IS NOT NULL AND EXISTS { (e)-[:HOLDS]->() } } AS held,
       EXISTS { MATCH (w:Workflow {tenant: $tenant}) WHERE w.name IS NOT NULL }
         OR EXISTS { MATCH (c:ExperienceCard {tenant: $tenant}) WHERE c.uid IS NOT NULL } AS playbooks
