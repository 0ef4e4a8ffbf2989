// Delete a batch of everything a tenant has, ledger included (tests and `graphmem eval`).
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
  MATCH (n:WorkingItem {tenant: $tenant}) RETURN n LIMIT $batch
  UNION
  MATCH (n:WorkingSession {tenant: $tenant}) RETURN n LIMIT $batch
  UNION
  MATCH (n:Event {tenant: $tenant}) WHERE n.seq IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:LedgerHead {tenant: $tenant}) RETURN n LIMIT $batch
}
DETACH DELETE n
RETURN count(*) AS deleted
