// A rebuild's diff (graphmem.store.projection_diff): relationships of the projection that the
// replay does not have. Only relationships that touch one of the tenant's own nodes.
UNWIND $ids AS id
MATCH (n)-[r]-() WHERE elementId(r) = id AND n.tenant = $tenant
WITH DISTINCT r
DELETE r
