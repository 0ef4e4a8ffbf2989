// summary/get: one stored summary (a derived copy) with the ledger version it was built at and
// whether a later event has touched the facts it was built from, and when its content changes by
// itself (changes_at: a valid_to, an expiry...).
// Browser:  :param tenant => 't-addr'
//           :param uid => 'lin/*'
MATCH (m:Summary {tenant: $tenant, uid: $uid})
OPTIONAL MATCH (m)-[:DERIVED_FROM]->(f:Fact)
RETURN m.uid AS uid, m.subject AS subject, m.topic AS topic, m.text AS text, m.version AS version,
       m.stale AS stale, m.stale_seq AS stale_seq, toString(m.built_at) AS built_at,
       toString(m.changes_at) AS changes_at, collect(f.uid) AS facts
