// Declare (or re-declare) topics' cardinality: 'one' or 'many'.
UNWIND $topics AS t
MERGE (n:Topic {tenant: $tenant, name: t.name})
SET n.cardinality = t.cardinality
