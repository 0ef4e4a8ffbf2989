// recall/embed_write: store embeddings on facts and move the tenant's EmbeddingState to the ledger
// sequence number they were built up to.
UNWIND $rows AS row
MATCH (f:Fact {tenant: $tenant, uid: row.uid})
CALL db.create.setNodeVectorProperty(f, 'embedding', row.vector)
WITH count(*) AS written
MERGE (x:EmbeddingState {tenant: $tenant})
SET x.seq = CASE WHEN coalesce(x.seq, 0) > $seq THEN x.seq ELSE $seq END, x.embedder = $embedder
RETURN written
