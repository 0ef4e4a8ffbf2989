// New change points replaced what stood just before them.
UNWIND $pairs AS p
MATCH (new:Fact {tenant: $tenant, uid: p.new}), (old:Fact {tenant: $tenant, uid: p.old})
MERGE (new)-[s:SUPERSEDES]->(old)
ON CREATE SET s.recorded_at = p.recorded_at, s.event_seq = p.seq
