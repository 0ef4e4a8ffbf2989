// Cardinalities of some topics; a topic with no row is undeclared (cardinality 'one').
UNWIND $names AS name
MATCH (t:Topic {tenant: $tenant, name: name})
RETURN t.name AS name, t.cardinality AS cardinality, t.ttl_seconds AS ttl_seconds
