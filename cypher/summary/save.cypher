// summary/save: store a freshly built summary, the ledger version it was built at, and a
// DERIVED_FROM link to every fact it used (the old links go: the summary is rebuilt whole).
// Setting a property on the ledger head takes its lock, so the version re-read here is the latest
// committed one: if a write landed while the summary was being built, it is saved as stale.
// changes_at: the earliest time its content changes by itself (summary/next_change); after it,
// the summary counts as stale too.
OPTIONAL MATCH (h:LedgerHead {tenant: $tenant})
SET h.summarised_at = datetime($built_at)
WITH coalesce(h.seq, 0) > $version AS behind
MERGE (m:Summary {tenant: $tenant, uid: $uid})
SET m.subject = $subject, m.topic = $topic, m.text = $text, m.version = $version,
    m.built_at = datetime($built_at), m.changes_at = datetime($changes_at), m.stale = behind, m.stale_seq = null, m.builder = $builder
WITH m
OPTIONAL MATCH (m)-[old:DERIVED_FROM]->()
DELETE old
WITH DISTINCT m
UNWIND $facts AS uid
MATCH (f:Fact {tenant: $tenant, uid: uid})
CREATE (m)-[:DERIVED_FROM {version: $version}]->(f)
RETURN count(*) AS linked
