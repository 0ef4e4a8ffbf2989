// Times arrive as ISO 8601 text and become DateTime here: the driver packs text far faster than temporal values.
// A newer source cites an older one. A quote never supersedes anything.
UNWIND $quotes AS q
MATCH (new:Source {tenant: $tenant, uid: q.source}), (old:Source {tenant: $tenant, uid: q.quotes})
MERGE (new)-[r:QUOTES]->(old)
ON CREATE SET r.recorded_at = datetime(q.recorded_at), r.event_seq = q.seq
