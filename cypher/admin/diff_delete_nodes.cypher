// A rebuild's diff (graphmem.store.projection_diff): nodes of the projection that the replay
// does not have, with their relationships.
UNWIND $ids AS id
MATCH (n) WHERE elementId(n) = id AND n.tenant = $tenant
DETACH DELETE n
