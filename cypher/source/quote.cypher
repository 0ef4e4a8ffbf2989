// A newer source cites an older one. A quote never supersedes anything.
MATCH (new:Source {tenant: $tenant, uid: $source}), (old:Source {tenant: $tenant, uid: $quotes})
MERGE (new)-[q:QUOTES]->(old)
ON CREATE SET q.recorded_at = $recorded_at, q.event_seq = $seq
