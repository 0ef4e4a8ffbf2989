// The tenant's ledger head as ledger/lock returns it, read without taking the lock: what a bulk
// load's next batch starts its rules from while the batch before it commits. The batch's own
// transaction takes the lock and checks the head is still this one (graphmem.store.pipeline).
OPTIONAL MATCH (h:LedgerHead {tenant: $tenant})
RETURN coalesce(h.seq, 0) AS seq, h.last_recorded_at AS last_recorded_at, h.last_hash AS last_hash,
       datetime() AS server_now,
       EXISTS { MATCH (m:Summary {tenant: $tenant}) WHERE m.uid IS NOT NULL } AS has_summaries
