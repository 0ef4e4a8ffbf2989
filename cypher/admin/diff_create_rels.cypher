// A rebuild's diff (graphmem.store.projection_diff): a relationship of the replay that the
// projection does not have, made between the tenant's nodes it joins (x.start, x.end), with the
// replay's type and properties (x.shadow: the replay's own relationship).
UNWIND $rows AS x
MATCH (a) WHERE elementId(a) = x.start
MATCH (b) WHERE elementId(b) = x.end
MATCH ()-[s]->() WHERE elementId(s) = x.shadow
WITH a, b, s WHERE a.tenant = $tenant OR b.tenant = $tenant
CREATE (a)-[r:$(type(s))]->(b)
SET r = properties(s)
