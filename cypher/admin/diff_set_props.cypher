// A rebuild's diff (graphmem.store.projection_diff): a node both have, whose properties differ,
// gets the replay's value of each property that differs (a null one removes it); the others are
// not written at all.
UNWIND $rows AS x
MATCH (n) WHERE elementId(n) = x.live AND n.tenant = $tenant
MATCH (s) WHERE elementId(s) = x.shadow AND s.tenant = $shadow
UNWIND x.keys AS k
SET n[k] = s[k]
