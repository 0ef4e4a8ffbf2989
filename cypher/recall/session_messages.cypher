// recall/session_messages: one session's messages in the order they were said — a chat history
// (graphmem.interfaces.langchain reads it; `graphmem messages SESSION`). Erased messages are gone
// from the projection, so they are gone from here too.
// Browser:  :param tenant => 'demo'
//           :param session => 's1'
//           :param limit => 1000
MATCH (s:Source {tenant: $tenant, session: $session})
USING INDEX s:Source(tenant, session)
WHERE s.text IS NOT NULL
RETURN s.uid AS id, s.author AS speaker, s.text AS text, s.kind AS kind, s.at AS at,
       s.relayed_by AS relayed_by
ORDER BY s.at, s.seq
LIMIT $limit
