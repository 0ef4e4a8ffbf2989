// Link an event to the facts it created or changed (also re-done by a replay).
MATCH (v:Event {tenant: $tenant, seq: $seq})
UNWIND $facts AS fact_uid
MATCH (f:Fact {tenant: $tenant, uid: fact_uid})
MERGE (v)-[:APPLIED_TO]->(f)
