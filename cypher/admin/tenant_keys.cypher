// admin/tenant_keys: write `tenant_key` on up to $batch Fact, Source and Entity nodes each (a transaction's
// worth) of the tenants named in $keys (tenant name -> key, computed in Python: graphmem.core.tenant_key).
// graphmem.store.upgrade repeats it until it keys nothing. The tenant comes from the node itself, so the key
// written is always the key of the node's own tenant.
// Browser:  :param keys => {`conv-26`: 'tk1234'}
//           :param batch => 10000
CALL () {
  MATCH (n:Fact) WHERE n.tenant_key IS NULL AND n.tenant IN keys($keys) RETURN n LIMIT $batch
  UNION
  MATCH (n:Source) WHERE n.tenant_key IS NULL AND n.tenant IN keys($keys) RETURN n LIMIT $batch
  UNION
  MATCH (n:Entity) WHERE n.tenant_key IS NULL AND n.tenant IN keys($keys) RETURN n LIMIT $batch
}
SET n.tenant_key = $keys[n.tenant]
RETURN count(n) AS keyed
