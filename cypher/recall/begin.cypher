// recall/begin: what context() needs to know about a tenant before it asks anything else, in one
// round trip — the ledger head (the version the context reports), how far the embeddings have
// caught up and with which embedder, and whether the tenant holds any facts or playbooks at all
// (a tenant of messages only skips the fact and playbook legs: fewer round trips, same answer).
// Browser:  :param tenant => 'conv-26'
OPTIONAL MATCH (h:LedgerHead {tenant: $tenant})
OPTIONAL MATCH (x:EmbeddingState {tenant: $tenant})
RETURN coalesce(h.seq, 0) AS head, x.seq AS embedded, x.embedder AS embedder,
       EXISTS { MATCH (f:Fact {tenant: $tenant}) WHERE f.uid IS NOT NULL } AS facts,
       EXISTS { MATCH (w:Workflow {tenant: $tenant}) WHERE w.name IS NOT NULL }
         OR EXISTS { MATCH (c:ExperienceCard {tenant: $tenant}) WHERE c.uid IS NOT NULL } AS playbooks
