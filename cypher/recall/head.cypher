// recall/head: the tenant's ledger version (the last sequence number), stamped on every context.
OPTIONAL MATCH (h:LedgerHead {tenant: $tenant})
RETURN coalesce(h.seq, 0) AS seq
