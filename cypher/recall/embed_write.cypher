// recall/embed_write: store embeddings on facts and sources, and move the tenant's EmbeddingState
// to the ledger sequence number they now cover.
CALL () {
  UNWIND $facts AS row
  MATCH (f:Fact {tenant: $tenant, uid: row.uid})
  CALL db.create.setNodeVectorProperty(f, 'embedding', row.vector)
}
CALL () {
  UNWIND $sources AS row
  MATCH (s:Source {tenant: $tenant, uid: row.uid})
  CALL db.create.setNodeVectorProperty(s, 'embedding', row.vector)
}
MERGE (x:EmbeddingState {tenant: $tenant})
SET x.seq = CASE WHEN coalesce(x.seq, 0) > $seq THEN x.seq ELSE $seq END, x.embedder = $embedder
RETURN x.seq AS seq
