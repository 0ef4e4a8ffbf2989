// Take the tenant's ledger head (creating it on first use) and lock it for this transaction, so
// that events of one tenant get a gap-free, totally ordered sequence and record time never runs back.
MERGE (h:LedgerHead {tenant: $tenant})
ON CREATE SET h.seq = 0, h.last_recorded_at = null
SET h.locked_by = $token
// server_now: the server's clock, which bounds record time (graphmem.store.projection.record_time):
// a client whose clock runs ahead cannot stamp the ledger in the future.
// Whether any summary exists: if none, a write has none to mark stale and skips that query. (A
// summary saved later takes this same lock first, so it cannot slip in unseen.)
RETURN h.seq AS seq, h.last_recorded_at AS last_recorded_at, h.last_hash AS last_hash, datetime() AS server_now,
       EXISTS { MATCH (m:Summary {tenant: $tenant}) WHERE m.uid IS NOT NULL } AS has_summaries
