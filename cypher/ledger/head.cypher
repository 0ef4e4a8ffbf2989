// The tenant's ledger head: last sequence number, record time and chain hash.
MATCH (h:LedgerHead {tenant: $tenant})
RETURN h.seq AS seq, toString(h.last_recorded_at) AS last_recorded_at, h.last_hash AS last_hash
