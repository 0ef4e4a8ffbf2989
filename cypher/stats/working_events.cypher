// stats: working-memory context reads and session closes since $since (tokens per context, and
// the outcomes' feedback on wrong memories), as their ledger payloads.
MATCH (v:Event {tenant: $tenant})
WHERE v.op = 'working' AND v.recorded_at >= datetime($since)
  AND (v.payload CONTAINS '"action": "context"' OR v.payload CONTAINS '"action": "close"')
RETURN v.payload AS payload
ORDER BY v.seq
