// Register a source (message, email, tool result, document, import) with its own time and text.
CREATE (s:Source {tenant: $tenant, uid: $uid, kind: $kind, at: $at, text: $text, author: $author,
                  recorded_at: $recorded_at})
