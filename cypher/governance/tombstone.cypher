// The erase itself, in the ledger: who, when, why, what kind of thing; no content. It is chained
// like every event (digest, hash); the redacted events keep their digests, so the chain still verifies.
MATCH (h:LedgerHead {tenant: $tenant})
SET h.seq = $seq, h.last_recorded_at = datetime($recorded_at), h.last_hash = $hash, h.locked_by = null
CREATE (:Event {tenant: $tenant, seq: $seq, op: 'erase', payload: $payload, actor: $actor, reason: $reason,
                recorded_at: datetime($recorded_at), facts: [], digest: $digest, hash: $hash})
