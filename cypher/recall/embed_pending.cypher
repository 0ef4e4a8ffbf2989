// recall/embed_pending: facts written after the embeddings were last brought up to date (by ledger
// sequence number, through the fact_seq index), oldest first. Derived copies know their version.
OPTIONAL MATCH (x:EmbeddingState {tenant: $tenant})
WITH coalesce(x.seq, 0) AS after, x.embedder AS embedder
MATCH (f:Fact {tenant: $tenant})
WHERE f.seq > after AND f.kind = 'set'
RETURN f.uid AS uid, f.seq AS seq, f.subject AS subject, f.topic AS topic, f.value AS value,
       f.evidence AS evidence, embedder
ORDER BY f.seq
LIMIT $limit
