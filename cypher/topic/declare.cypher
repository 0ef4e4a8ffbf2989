// Declare (or re-declare) a topic's cardinality: 'one' or 'many'.
MERGE (t:Topic {tenant: $tenant, name: $name})
SET t.cardinality = $cardinality
