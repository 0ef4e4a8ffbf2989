// Drop a batch of the tenant's projection (everything but the ledger) before a replay.
// Not a hot path: one pass per label, through the (tenant, uid) constraint indexes.
CALL () {
  MATCH (n:Fact {tenant: $tenant}) WHERE n.uid IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:Source {tenant: $tenant}) WHERE n.uid IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:Episode {tenant: $tenant}) WHERE n.uid IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:Entity {tenant: $tenant}) WHERE n.uid IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:Topic {tenant: $tenant}) WHERE n.name IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:Summary {tenant: $tenant}) WHERE n.uid IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:EmbeddingState {tenant: $tenant}) RETURN n LIMIT $batch
  UNION
  MATCH (n:WorkingItem {tenant: $tenant}) WHERE n.session IS NOT NULL AND n.uid IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:WorkingSession {tenant: $tenant}) WHERE n.session IS NOT NULL RETURN n LIMIT $batch
}
DETACH DELETE n
RETURN count(*) AS deleted
