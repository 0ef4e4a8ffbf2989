// Working memory under erase: working events whose text mentions the erased subject (any case) or
// names an erased source — the candidates among checkpoints; graphmem.working.working_store keeps those
// whose state names the subject as a word or cites an erased source.
MATCH (v:Event {tenant: $tenant, op: 'working'})
WHERE v.seq IS NOT NULL
  AND (($subject IS NOT NULL AND toLower(v.payload) CONTAINS toLower($subject))
       OR any(s IN $sources WHERE v.payload CONTAINS s))
RETURN v.seq AS seq, v.payload AS payload
ORDER BY v.seq
