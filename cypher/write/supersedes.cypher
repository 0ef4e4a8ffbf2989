// Times arrive as ISO 8601 text and become DateTime here: the driver packs text far faster than temporal values.
// New change points replaced what stood just before them.
UNWIND $pairs AS p
MATCH (new:Fact {tenant: $tenant, uid: p.new}), (old:Fact {tenant: $tenant, uid: p.old})
MERGE (new)-[s:SUPERSEDES]->(old)
ON CREATE SET s.recorded_at = datetime(p.recorded_at), s.event_seq = p.seq
