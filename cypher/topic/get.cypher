// A topic's cardinality; no row means an undeclared topic (cardinality 'one').
MATCH (t:Topic {tenant: $tenant, name: $name})
RETURN t.cardinality AS cardinality
