// Everything of a tenant's projection (not its ledger) as comparable rows: each node (its element
// id, labels and properties) with every relationship it has (element id, type, properties, the
// element ids of its two ends). A rebuild reads it for the projection and for the replay it made
// under the tenant's shadow name, in the same transaction, and writes only what differs
// (graphmem.store.projection_diff); if nothing differs it commits nothing. One pass per label
// through the (tenant, key) constraint indexes, as admin/drop_projection.
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
OPTIONAL MATCH (n)-[r]-()
// Values as text where they can be (times above all: the driver is slow to decode them), lists as they are.
WITH n, collect(CASE WHEN r IS NOT NULL THEN
                  [elementId(r), type(r),
                   [k IN keys(r) | [k, CASE WHEN r[k] IS :: LIST<ANY> THEN r[k] ELSE toString(r[k]) END]],
                   elementId(startNode(r)), elementId(endNode(r))] END) AS rels
RETURN elementId(n) AS id, labels(n) AS labels,
       [k IN keys(n) | [k, CASE WHEN n[k] IS :: LIST<ANY> THEN n[k] ELSE toString(n[k]) END]] AS props, rels
