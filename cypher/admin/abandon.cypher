// Fail the transaction on purpose, so that it commits nothing: a rebuild whose replay came out
// exactly as the projection was (graphmem.store.maintenance.replay_all). Committing its deletions
// and identical re-creations would not reach readers all at once, as they take no locks: a read
// running while the commit is applied can find an old node gone and its copy not there yet.
// Cypher has no statement that raises; a division by zero (of the ledger head's own seq, which
// the rebuild has locked, so that planning cannot fold it) is the portable way, on every Neo4j.
MATCH (h:LedgerHead {tenant: $tenant})
RETURN 1 / (h.seq - h.seq) AS abandoned
