// Times arrive as ISO 8601 text and become DateTime here: the driver packs text far faster than temporal values.
// Register sources (message, email, tool result, document, import) with their own time and text.
// $tenant_key: the tenant's exact token in the full-text indexes (graphmem.core.tenant_key).
UNWIND $sources AS s
CREATE (:Source {tenant: $tenant, tenant_key: $tenant_key, uid: s.uid, seq: s.seq, kind: s.kind, at: datetime(s.at), text: s.text, author: s.author,
                 recorded_at: datetime(s.recorded_at), expires_at: datetime(s.expires_at),
                 session: s.session, about: s.about,
                 relayed_by: s.relayed_by})
