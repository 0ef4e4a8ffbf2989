// recall/people: who the names of a task may be — speakers of the tenant's messages, entity ids
// and names, and the subjects of `alias` facts — found through the full-text indexes (case-
// insensitive; a trailing * is a prefix, for nicknames). graphmem.recall.episodic picks exact over prefix
// and reports a name with two candidates instead of guessing.
// Browser:  :param tenant => 'conv-26'
//           :param lucene_authors => '+tenant_key:"tk201514753264261549319359"^0 +(author:("Mel" OR mel*))'
//           :param lucene_entities => '+tenant_key:"tk201514753264261549319359"^0 +(uid:("Mel" OR mel*) OR name:("Mel" OR mel*))'
//           :param lucene_aliases => '+tenant_key:"tk201514753264261549319359"^0 +(topic:"alias" AND value:("Mel" OR mel*))'
CALL db.index.fulltext.queryNodes('message_text', $lucene_authors, {limit: 300}) YIELD node
WITH node WHERE node.tenant = $tenant AND node.author IS NOT NULL
RETURN DISTINCT node.author AS id, null AS alias
UNION
CALL db.index.fulltext.queryNodes('memory_text', $lucene_entities, {limit: 100}) YIELD node
WITH node WHERE node.tenant = $tenant AND node:Entity
RETURN DISTINCT node.uid AS id, null AS alias
UNION
CALL db.index.fulltext.queryNodes('memory_text', $lucene_aliases, {limit: 100}) YIELD node
WITH node WHERE node.tenant = $tenant AND node:Fact AND node.topic = 'alias' AND node.kind = 'set'
RETURN DISTINCT node.subject AS id, toString(node.value) AS alias
