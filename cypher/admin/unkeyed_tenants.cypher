// admin/unkeyed_tenants: the tenants with a Fact, Source or Entity that has no `tenant_key` (a store written
// before the key existed): graphmem.store.upgrade computes each one's key (graphmem.core.tenant_key) and
// writes it (admin/tenant_keys). Database-wide, run once per schema version on connect, or by
// `graphmem schema install`. A scan of the three labels.
MATCH (n:Fact|Source|Entity)
WHERE n.tenant_key IS NULL AND n.tenant IS NOT NULL
RETURN DISTINCT n.tenant AS name
