// Candidate facts awaiting confirmation (never an answer to "what is true" until confirmed).
// Browser:  :param tenant => 't-cand'
MATCH (f:Fact {tenant: $tenant})
WHERE f.uid IS NOT NULL AND f.status = 'candidate' AND f.confirmed_at IS NULL
  AND f.rejected_at IS NULL AND f.retracted_at IS NULL
OPTIONAL MATCH (f)-[:FROM]->(s:Source)
RETURN f.subject AS subject, f.topic AS topic, f.value AS value, f.authority AS authority,
       f.ref AS ref, f.confidence AS confidence, s.uid AS source, s.text AS source_text, f.recorded_at AS recorded_at
ORDER BY recorded_at
