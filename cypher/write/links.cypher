// Link events to the facts they created or changed (also re-done by a replay).
UNWIND $links AS l
MATCH (v:Event {tenant: $tenant, seq: l.seq}), (f:Fact {tenant: $tenant, uid: l.fact})
MERGE (v)-[:APPLIED_TO]->(f)
