// A rebuild's diff (graphmem.store.projection_diff): a relationship both have (same type, same
// ends) whose properties differ takes the replay's properties, in place.
UNWIND $rows AS x
MATCH (n)-[r]-() WHERE elementId(r) = x.live AND n.tenant = $tenant
MATCH ()-[s]->() WHERE elementId(s) = x.shadow
WITH DISTINCT r, s
SET r = properties(s)
