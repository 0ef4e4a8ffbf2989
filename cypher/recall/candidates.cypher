// recall/candidates: the facts a task should see, in the order of work docs/design.md §6 asks for —
// 1. scope (tenant, subject and its neighbourhood, environment), 2. time (only segments live at
// ($valid_at, $known_at)), 3. candidates by relevance (graph, topic, full-text, vector legs),
// 4. rank (weighted reciprocal-rank fusion of the legs; authority/validity/confidence are weighed in Python,
// graphmem.recall.recall, where the warnings are also drawn).
// Every leg ends in the same scope-and-time join, so nothing outside the scope or the time reaches
// the ranking, whatever the index returned.
// Browser:  :param tenant => 't-addr'
//           :param subject => 'lin'
//           :param roots => ['lin']
//           :param hops => 2
//           :param envs => ['']
//           :param valid_at => datetime('2026-10-05T00:00:00Z')
//           :param known_at => datetime()
//           :param topics => ['home_address']
//           :param topic_rank => {home_address: 0}
//           :param lucene => '+tenant_key:"tk461418609550029124801188"^0 +("address" OR "package")'
//           :param vector_hits => []
//           :param k => 50
//           :param rrf_k => 60
//           :param weights => {graph: 0.5, topic: 1.0, text: 1.0, vector: 1.0}
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
// -- 1. scope: the roots (the subject, or the entities the task names) and what they relate to now,
//    outwards, up to $hops relations; with no subject the whole tenant is in scope for the index legs.
CALL (valid_at, known_at) {
  OPTIONAL MATCH (root:Entity {tenant: $tenant}) WHERE root.uid IN $roots
  CALL (root, valid_at, known_at) {
    WITH root WHERE root IS NOT NULL
    RETURN root AS e, 0 AS hop
    UNION
    WITH root, valid_at, known_at WHERE root IS NOT NULL AND $hops >= 1
    MATCH (root)-[r1:RELATED]->(n1:Entity)
    WHERE r1.env IN $envs AND NOT r1.conflict
      AND r1.valid_from <= valid_at AND (r1.valid_to IS NULL OR valid_at < r1.valid_to)
      AND r1.recorded_at <= known_at AND (r1.superseded_at IS NULL OR known_at < r1.superseded_at)
      AND (r1.expires_at IS NULL OR known_at < r1.expires_at)
    WITH DISTINCT n1, valid_at, known_at LIMIT $k
    CALL (n1, valid_at, known_at) {
      RETURN n1 AS e, 1 AS hop
      UNION
      // the second hop, bounded per node: a hub (a country, a big project) cannot flood the scope
      WITH n1, valid_at, known_at WHERE $hops >= 2
      MATCH (n1)-[r2:RELATED]->(n2:Entity)
      WHERE r2.env IN $envs AND NOT r2.conflict
        AND r2.valid_from <= valid_at AND (r2.valid_to IS NULL OR valid_at < r2.valid_to)
        AND r2.recorded_at <= known_at AND (r2.superseded_at IS NULL OR known_at < r2.superseded_at)
        AND (r2.expires_at IS NULL OR known_at < r2.expires_at)
      WITH DISTINCT n2 LIMIT 10
      RETURN n2 AS e, 2 AS hop
    }
    RETURN e, hop
  }
  WITH e, min(hop) AS hop
  RETURN collect({e: e, hop: hop}) AS scope
}
WITH valid_at, known_at, scope, [s IN scope | s.e] AS scoped, $subject IS NULL AS wide
// -- 2 and 3. candidates by relevance, each leg joined to the live segment of its fact
CALL (valid_at, known_at, scope, scoped, wide) {
  // graph leg: what the scoped entities hold now, nearest first
  UNWIND scope AS s
  WITH s.e AS e, s.hop AS hop, valid_at, known_at
  MATCH (e)-[h:HOLDS]->(f:Fact)
  WHERE h.env IN $envs
    AND h.valid_from <= valid_at AND (h.valid_to IS NULL OR valid_at < h.valid_to)
    AND h.recorded_at <= known_at AND (h.superseded_at IS NULL OR known_at < h.superseded_at)
    AND (h.expires_at IS NULL OR known_at < h.expires_at)
  RETURN f, h, 'graph' AS leg, toFloat(hop) AS key
  UNION ALL
  // topic leg: scoped facts about the topics the task names, in the order named
  UNWIND scope AS s
  WITH s.e AS e, valid_at, known_at
  MATCH (e)-[h:HOLDS]->(f:Fact)
  WHERE h.topic IN $topics AND h.env IN $envs
    AND h.valid_from <= valid_at AND (h.valid_to IS NULL OR valid_at < h.valid_to)
    AND h.recorded_at <= known_at AND (h.superseded_at IS NULL OR known_at < h.superseded_at)
    AND (h.expires_at IS NULL OR known_at < h.expires_at)
  RETURN f, h, 'topic' AS leg, toFloat($topic_rank[h.topic]) AS key
  UNION ALL
  // full-text leg: a fact, a source (its facts) or an entity (what it holds) matching the task
  WITH valid_at, known_at, scoped, wide WHERE $lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('memory_text', $lucene, {limit: $k}) YIELD node, score
  WITH node, score, valid_at, known_at, scoped, wide WHERE node.tenant = $tenant
  CALL (node, scoped) {
    WITH node WHERE node:Fact
    RETURN node AS f
    UNION
    WITH node WHERE node:Source
    MATCH (f:Fact)-[:FROM]->(node)
    RETURN f
    UNION
    // an entity the task names (what it holds), unless the graph leg already starts from it: a
    // person's name alone is not a match for what they hold, or every fact of the person asked
    // about would rank first in two legs whatever the question
    WITH node WHERE node:Entity AND NOT node IN scoped
    MATCH (node)-[:HAS_FACT]->(f:Fact)
    RETURN f
  }
  MATCH (e:Entity)-[h:HOLDS]->(f)
  WHERE (wide OR e IN scoped) AND h.env IN $envs
    AND h.valid_from <= valid_at AND (h.valid_to IS NULL OR valid_at < h.valid_to)
    AND h.recorded_at <= known_at AND (h.superseded_at IS NULL OR known_at < h.superseded_at)
    AND (h.expires_at IS NULL OR known_at < h.expires_at)
  RETURN f, h, 'text' AS leg, -score AS key
  UNION ALL
  // vector leg: the nearest facts by embedding (found by recall/vector.cypher), same join
  UNWIND range(0, size($vector_hits) - 1) AS i
  MATCH (f:Fact {tenant: $tenant, uid: $vector_hits[i]})
  MATCH (e:Entity)-[h:HOLDS]->(f)
  WHERE (wide OR e IN scoped) AND h.env IN $envs
    AND h.valid_from <= valid_at AND (h.valid_to IS NULL OR valid_at < h.valid_to)
    AND h.recorded_at <= known_at AND (h.superseded_at IS NULL OR known_at < h.superseded_at)
    AND (h.expires_at IS NULL OR known_at < h.expires_at)
  RETURN f, h, 'vector' AS leg, toFloat(i) AS key
}
// -- 4. rank: each leg's hits in order, fused by reciprocal rank
WITH leg, f, h, min(key) AS key
ORDER BY leg, key, f.uid
WITH leg, collect({f: f, h: h}) AS hits
UNWIND range(0, size(hits) - 1) AS i
WITH hits[i].f AS f, hits[i].h AS h, leg, i + 1 AS rank
WITH f, h, sum(coalesce($weights[leg], 1.0) / ($rrf_k + rank)) AS rrf, collect(leg + ':' + toString(rank)) AS legs
ORDER BY rrf DESC, f.uid
LIMIT $k
OPTIONAL MATCH (f)-[:FROM]->(s:Source)
OPTIONAL MATCH (q:Source)-[:QUOTES]->(s)
WITH f, h, rrf, legs, s, collect(DISTINCT q.uid) AS quoted_by
RETURN f.uid AS fact, f.subject AS subject, f.topic AS topic, f.env AS env, f.value AS value,
       f.is_entity AS is_entity, f.authority AS authority, f.status AS status, f.confidence AS confidence,
       f.quoted AS quoted, f.evidence AS evidence, f.seq AS version, h.conflict AS conflict,
       toString(h.valid_from) AS valid_from, toString(h.valid_to) AS valid_to,
       toString(f.recorded_at) AS recorded_at, toString(coalesce(h.expires_at, f.expires_at)) AS expires_at,
       s.uid AS source, s.kind AS source_kind, toString(s.at) AS source_at, s.author AS source_author,
       s.text AS source_text, quoted_by, rrf, legs,
       s.relayed_by AS source_relayed_by
