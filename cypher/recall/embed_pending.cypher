// recall/embed_pending: facts and sources written after the embeddings were last brought up to date
// (by ledger sequence number, through the fact_seq and source_seq indexes), oldest first.
// Derived copies know their version: EmbeddingState.seq.
OPTIONAL MATCH (x:EmbeddingState {tenant: $tenant})
WITH coalesce(x.seq, 0) AS after, x.embedder AS embedder
CALL (after) {
  MATCH (f:Fact {tenant: $tenant})
  WHERE f.seq > after AND f.kind = 'set'
  RETURN 'Fact' AS label, f.uid AS uid, f.seq AS seq, f.subject AS subject, f.topic AS topic, f.value AS value,
         f.evidence AS evidence, null AS text, null AS author
  UNION ALL
  MATCH (s:Source {tenant: $tenant})
  WHERE s.seq > after AND s.text IS NOT NULL AND s.text <> ''
  RETURN 'Source' AS label, s.uid AS uid, s.seq AS seq, null AS subject, null AS topic, null AS value,
         null AS evidence, s.text AS text, s.author AS author
}
RETURN label, uid, seq, subject, topic, value, evidence, text, author, embedder
ORDER BY seq, label, uid
LIMIT $limit
