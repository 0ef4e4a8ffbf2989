// Append one event to the tenant's ledger and move the head; same transaction as its effect.
MATCH (h:LedgerHead {tenant: $tenant})
CREATE (v:Event {tenant: $tenant, seq: $seq, op: $op, payload: $payload, actor: $actor,
                 reason: $reason, recorded_at: $recorded_at, event_id: $event_id, facts: $facts})
SET h.seq = $seq, h.last_recorded_at = $recorded_at, h.locked_by = null
