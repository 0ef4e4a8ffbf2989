// Register sources (message, email, tool result, document, import) with their own time and text.
UNWIND $sources AS s
CREATE (:Source {tenant: $tenant, uid: s.uid, kind: s.kind, at: s.at, text: s.text, author: s.author,
                 recorded_at: s.recorded_at})
