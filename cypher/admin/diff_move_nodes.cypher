// A rebuild's diff (graphmem.store.projection_diff): nodes the replay made under the shadow name
// that the projection does not have become the tenant's own, with the relationships they have
// (those to other shadow nodes are replaced by admin/diff_create_rels before the shadow goes).
UNWIND $ids AS id
MATCH (n) WHERE elementId(n) = id AND n.tenant = $shadow
SET n.tenant = $tenant
