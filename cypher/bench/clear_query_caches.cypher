// graphmem bench recall --long-history: empty the server's query caches (every database's plans),
// so the next call of each question shape pays the planning a fresh server makes it pay — what the
// first-call latency measures (docs/scaling.md, "context() on a long history"). Never run by the
// library itself.
CALL db.clearQueryCaches()
