// recall/begin: what context() needs to know about a tenant before it asks anything else, in one
// round trip — the ledger head (the version the context reports), how far the embeddings have
// caught up and with which embedder, and whether the tenant holds any facts or playbooks at all
// (a tenant of messages only skips the fact and playbook legs: fewer round trips, same answer).
// `held`: whether any fact ever reached the timeline (a HOLDS segment, live or closed). The fact
// legs search only segments, so a tenant whose facts are all unconfirmed candidates (what a model
// draws from chat: DESIGN.md §5, L2) skips them too; `facts` still opens the candidate and session
// overlays, which read facts off the timeline.
// With the vectors the tenant has in each index, and the size of the label each index covers (the
// count store: no scan), so the vector legs ask a shared index for only as many hits as the
// tenant's share of it needs (graphmem.recall.recall.vector_k).
// Browser:  :param tenant => 'conv-26'
OPTIONAL MATCH (h:LedgerHead {tenant: $tenant})
OPTIONAL MATCH (x:EmbeddingState {tenant: $tenant})
RETURN coalesce(h.seq, 0) AS head, x.seq AS embedded, x.embedder AS embedder,
       x.fact_vectors AS fact_vectors, x.source_vectors AS source_vectors,
       COUNT { (:Fact) } AS all_facts, COUNT { (:Source) } AS all_sources,
       EXISTS { MATCH (f:Fact {tenant: $tenant}) WHERE f.uid IS NOT NULL } AS facts,
       EXISTS { MATCH (e:Entity {tenant: $tenant}) WHERE e.uid IS NOT NULL AND EXISTS { (e)-[:HOLDS]->() } } AS held,
       EXISTS { MATCH (w:Workflow {tenant: $tenant}) WHERE w.name IS NOT NULL }
         OR EXISTS { MATCH (c:ExperienceCard {tenant: $tenant}) WHERE c.uid IS NOT NULL } AS playbooks
