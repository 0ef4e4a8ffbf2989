// Times arrive as ISO 8601 text and become DateTime here: the driver packs text far faster than temporal values.
// Declare (or re-declare) topics' cardinality: 'one' or 'many'.
UNWIND $topics AS t
MERGE (n:Topic {tenant: $tenant, name: t.name})
ON CREATE SET n.expiring = false  // none of its facts can expire yet (write/facts)
SET n.cardinality = t.cardinality, n.ttl_seconds = t.ttl_seconds
