// Times arrive as ISO 8601 text and become DateTime here: the driver packs text far faster than temporal values.
// Declare (or re-declare) topics' cardinality: 'one' or 'many'.
UNWIND $topics AS t
// A new topic has no fact that can expire yet: write/facts marks it when one comes.
MERGE (n:Topic {tenant: $tenant, name: t.name})
ON CREATE SET n.expiring = false
SET n.cardinality = t.cardinality, n.ttl_seconds = t.ttl_seconds
