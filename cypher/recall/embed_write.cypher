// recall/embed_write: store embeddings on facts and sources, and move the tenant's EmbeddingState
// to the ledger sequence number they now cover. It also counts the nodes that gained a vector
// (fact_vectors, source_vectors: what the tenant holds in each shared index; a node embedded again
// is not counted twice; an erased one is not taken off, so the counts may only run high).
CALL () {
  UNWIND $facts AS row
  MATCH (f:Fact {tenant: $tenant, uid: row.uid})
  WITH f, row, f.embedding IS NULL AS fresh
  CALL db.create.setNodeVectorProperty(f, 'embedding', row.vector)
  RETURN sum(toInteger(fresh)) AS new_facts
}
CALL () {
  UNWIND $sources AS row
  MATCH (s:Source {tenant: $tenant, uid: row.uid})
  WITH s, row, s.embedding IS NULL AS fresh
  CALL db.create.setNodeVectorProperty(s, 'embedding', row.vector)
  RETURN sum(toInteger(fresh)) AS new_sources
}
MERGE (x:EmbeddingState {tenant: $tenant})
SET x.seq = CASE WHEN coalesce(x.seq, 0) > $seq THEN x.seq ELSE $seq END, x.embedder = $embedder,
    x.fact_vectors = coalesce(x.fact_vectors, 0) + new_facts,
    x.source_vectors = coalesce(x.source_vectors, 0) + new_sources
RETURN x.seq AS seq
