// The latest assertions about some subjects: what a correction or a cancellation refers to.
MATCH (f:Fact {tenant: $tenant})
WHERE f.subject IN $subjects AND f.kind = 'set' AND f.retracted_at IS NULL AND f.rejected_at IS NULL
  AND NOT f.quoted
RETURN f.uid AS uid, f.subject AS subject, f.topic AS topic, f.env AS env, f.value AS value,
       f.valid_from AS valid_from, f.valid_to AS valid_to, f.author AS author, f.seq AS seq
ORDER BY f.seq DESC
LIMIT $limit
