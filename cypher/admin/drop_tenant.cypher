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
  MATCH (n:WorkingItem {tenant: $tenant}) WHERE n.session IS NOT NULL AND n.uid IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:WorkingSession {tenant: $tenant}) WHERE n.session IS NOT NULL RETURN n LIMIT $batch
  UNION
  // playbooks: written beside their ledger events, not replayed from them (a rebuild keeps them)
  MATCH (n:Outcome {tenant: $tenant}) WHERE n.uid IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:ExperienceCard {tenant: $tenant}) WHERE n.uid IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:Workflow {tenant: $tenant}) WHERE n.name IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:WorkflowVersion {tenant: $tenant}) WHERE n.uid IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:Approval {tenant: $tenant}) WHERE n.at IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:Event {tenant: $tenant}) WHERE n.seq IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:LedgerHead {tenant: $tenant}) RETURN n LIMIT $batch
}
DETACH DELETE n
RETURN count(*) AS deleted
