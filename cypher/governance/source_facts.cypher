// Facts that came from some sources.
UNWIND $sources AS sid
MATCH (f:Fact {tenant: $tenant})-[:FROM]->(:Source {tenant: $tenant, uid: sid})
RETURN DISTINCT f.uid AS uid
