// Everything of a tenant's projection (not its ledger) as comparable rows: each node with every
// relationship it has, the other end named by its labels and key. A rebuild reads it before and
// after its replay, in its own transaction; if nothing differs it commits nothing
// (graphmem.store.maintenance.replay_all). One pass per label through the (tenant, key) constraint
// indexes, as admin/drop_projection.
CALL () {
  MATCH (n:Fact {tenant: $tenant}) WHERE n.uid IS NOT NULL RETURN n
  UNION
  MATCH (n:Source {tenant: $tenant}) WHERE n.uid IS NOT NULL RETURN n
  UNION
  MATCH (n:Episode {tenant: $tenant}) WHERE n.uid IS NOT NULL RETURN n
  UNION
  MATCH (n:Entity {tenant: $tenant}) WHERE n.uid IS NOT NULL RETURN n
  UNION
  MATCH (n:Topic {tenant: $tenant}) WHERE n.name IS NOT NULL RETURN n
  UNION
  MATCH (n:Summary {tenant: $tenant}) WHERE n.uid IS NOT NULL RETURN n
  UNION
  MATCH (n:EmbeddingState {tenant: $tenant}) RETURN n
  UNION
  MATCH (n:WorkingItem {tenant: $tenant}) WHERE n.session IS NOT NULL AND n.uid IS NOT NULL RETURN n
  UNION
  MATCH (n:WorkingSession {tenant: $tenant}) WHERE n.session IS NOT NULL RETURN n
}
OPTIONAL MATCH (n)-[r]-(m)
// Values as text where they can be (times above all: the driver is slow to decode them), lists as they are.
WITH n, collect([type(r), [k IN keys(r) | [k, CASE WHEN r[k] IS :: LIST<ANY> THEN r[k] ELSE toString(r[k]) END]],
                 startNode(r) = n, labels(m), [m.uid, m.name, m.session, m.seq]]) AS rels
RETURN labels(n) AS labels, [k IN keys(n) | [k, CASE WHEN n[k] IS :: LIST<ANY> THEN n[k] ELSE toString(n[k]) END]] AS props,
       rels
