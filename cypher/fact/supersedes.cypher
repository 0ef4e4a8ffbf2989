// A new change point replaced what stood just before it.
MATCH (new:Fact {tenant: $tenant, uid: $new}), (old:Fact {tenant: $tenant, uid: $old})
MERGE (new)-[s:SUPERSEDES]->(old)
ON CREATE SET s.recorded_at = $recorded_at, s.event_seq = $seq
