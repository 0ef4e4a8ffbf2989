// Take the tenant's ledger head (creating it on first use) and lock it for this transaction, so
// that events of one tenant get a gap-free, totally ordered sequence and record time never runs back.
MERGE (h:LedgerHead {tenant: $tenant})
ON CREATE SET h.seq = 0, h.last_recorded_at = null
SET h.locked_by = $token
// Whether any summary exists: if none, a write has none to mark stale and skips that query. (A
// summary saved later takes this same lock first, so it cannot slip in unseen.)
RETURN h.seq AS seq, h.last_recorded_at AS last_recorded_at, h.last_hash AS last_hash,
       EXISTS { MATCH (m:Summary {tenant: $tenant}) WHERE m.uid IS NOT NULL } AS has_summaries
