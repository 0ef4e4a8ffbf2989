// Everything of a tenant's projection that a replay must reproduce: facts, their marks, and the
// timeline segments (HOLDS / RELATED), as comparable lines (graphmem.store.chain.verify hashes them).
MATCH (f:Fact {tenant: $tenant}) WHERE f.uid IS NOT NULL
RETURN [f.uid, f.kind, f.subject, f.topic, f.env, f.value, toString(f.valid_from), toString(f.valid_to),
        toString(f.recorded_at), f.authority, f.status, toString(f.confirmed_at), toString(f.rejected_at),
        toString(f.retracted_at), toString(f.expires_at), toString(f.withheld_at), toString(f.restored_at),
        toString(f.promoted_at), f.author, f.source] AS line
UNION ALL
MATCH (e:Entity {tenant: $tenant})-[h:HOLDS|RELATED]->(x) WHERE e.uid IS NOT NULL
RETURN [type(h), e.uid, h.seg, h.topic, h.env, toString(h.valid_from), toString(h.valid_to),
        toString(h.recorded_at), toString(h.superseded_at), h.conflict, toString(h.expires_at),
        coalesce(x.uid, '')] AS line
