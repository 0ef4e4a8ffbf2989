// A replay under the tenant's shadow name (graphmem.store.shadow) links each ledger event, which
// stays the tenant's own, to the shadow copies of the facts it created or changed — as
// write/links does for a replay in place — so that the diff against the projection compares
// these links too.
UNWIND $links AS l
MATCH (v:Event {tenant: $tenant, seq: l.seq}), (f:Fact {tenant: $shadow, uid: l.fact})
MERGE (v)-[:APPLIED_TO]->(f)
