// recall/messages: what was said (messages, and other sources with text) that the task matches —
// docs/design.md §6, "conversation is memory too". Scope first (tenant, subject, what was known at
// $known_at, not expired), then three legs (four with a named time range) ranked on their own — BM25 over the English-analysed
// text and its author (message_text), over CJK bigrams (message_text_cjk), and the nearest
// embeddings (source_embedding) — then weighted reciprocal-rank fusion, with a bonus for the asking
// session's own messages and for messages inside a time range the task names. For the best
// $neighbours of them, the turn before and the turn after (what it answered, what answered it) come
// in the same round trip: the nearest sources in ledger order (the source_seq index, within 8 ledger
// entries: a bounded range seek) of the same kind and session, said within $window_minutes, in the
// same scope.
// The indexes span tenants: the full-text queries require the tenant's exact key (`+tenant_key:"tk…"^0`:
// graphmem.recall.terms.scoped), every hit is re-checked against $tenant, and the vector index (which
// Neo4j 5 cannot filter inside a search) is asked for more than needed ($k_vector, then $k_deep), with
// an exact scan of the tenant's own vectors when that is not enough (below).
// Browser:  :param tenant => 'conv-26'
//           :param lucene_en => '+tenant_key:"tk201514753264261549319359"^0 +(text:"support" OR text:"group" OR author:"Caroline"^0.3)'
//           :param lucene_cjk => null
//           :param vector => null
//           :param k => 50
//           :param k_vector => 500
//           :param k_deep => 5000
//           :param vector_scan => false
//           :param k_range => 1000
//           :param known_at => toString(datetime())
//           :param subject => null
//           :param session => null
//           :param weights => {text: 1.0, text_cjk: 1.0, vector: 1.0}
//           :param rrf_k => 60
//           :param session_bonus => 0.0
//           :param range_from => null
//           :param range_to => null
//           :param range_bonus => 0.0
//           :param range_report_days => 7
//           :param neighbours => 20
//           :param window_minutes => 120
WITH datetime($known_at) AS known_at
CALL () {
  WITH 1 AS one WHERE $lucene_en IS NOT NULL
  CALL db.index.fulltext.queryNodes('message_text', $lucene_en, {limit: $k}) YIELD node, score
  RETURN node, 'text' AS leg, score
  UNION ALL
  WITH 1 AS one WHERE $lucene_cjk IS NOT NULL
  CALL db.index.fulltext.queryNodes('message_text_cjk', $lucene_cjk, {limit: $k}) YIELD node, score
  RETURN node, 'text_cjk' AS leg, score
  UNION ALL
  // the time leg: with a named range, the same full-text query asked deeper and kept to what was said
  // in the range or in the $range_report_days after it — what a person does when asked "where was Tim
  // in the second week of November": read what was said then, the asked person's turns first
  WITH 1 AS one WHERE $lucene_en IS NOT NULL AND $range_from IS NOT NULL
  CALL db.index.fulltext.queryNodes('message_text', $lucene_en, {limit: $k_range}) YIELD node, score
  WITH node, score
  WHERE datetime($range_from) <= node.at < datetime($range_to) + duration({days: $range_report_days})
  RETURN node, 'time' AS leg, score
  UNION ALL
  // the vector leg, exact for the tenant (docs/governance.md, "Tenants"). The shared index is asked
  // for $k_vector hits, kept to the tenant's in scope (the same scope as below); when fewer than $k
  // are left (other tenants' vectors may have hidden some), it is asked again $k_deep deep; when
  // that is still short, the tenant's own embedded sources are scored one by one (the source_key
  // index, then vector.similarity.cosine): exact by construction, bounded by the tenant's size. A
  // tenant small enough that the scan costs less than the index ($vector_scan:
  // graphmem.recall.vectors.scan_first) is scanned at once.
  WITH datetime($known_at) AS known_at WHERE $vector IS NOT NULL
  CALL (known_at) {
    WITH known_at WHERE NOT $vector_scan
    CALL db.index.vector.queryNodes('source_embedding', $k_vector, $vector) YIELD node, score
    WITH node, score
    WHERE node.tenant = $tenant AND node.recorded_at <= known_at
      AND (node.expires_at IS NULL OR known_at < node.expires_at) AND node.text IS NOT NULL AND node.text <> ''
      AND (node.withheld_at IS NULL OR node.restored_at IS NOT NULL)
      AND ($subject IS NULL OR node.author = $subject OR node.about = $subject
           OR EXISTS { MATCH (f:Fact)-[:FROM]->(node) WHERE f.subject = $subject })
    WITH node, score ORDER BY score DESC
    RETURN collect({node: node, score: score})[0..$k] AS near
  }
  CALL (near, known_at) {
    WITH near, known_at WHERE size(near) < $k AND $k_deep > $k_vector AND NOT $vector_scan
    CALL db.index.vector.queryNodes('source_embedding', $k_deep, $vector) YIELD node, score
    WITH node, score
    WHERE node.tenant = $tenant AND node.recorded_at <= known_at
      AND (node.expires_at IS NULL OR known_at < node.expires_at) AND node.text IS NOT NULL AND node.text <> ''
      AND (node.withheld_at IS NULL OR node.restored_at IS NOT NULL)
      AND ($subject IS NULL OR node.author = $subject OR node.about = $subject
           OR EXISTS { MATCH (f:Fact)-[:FROM]->(node) WHERE f.subject = $subject })
    WITH node, score ORDER BY score DESC
    RETURN collect({node: node, score: score})[0..$k] AS deep
  }
  WITH known_at, CASE WHEN size(near) >= $k THEN near ELSE deep END AS near
  CALL (near, known_at) {
    WITH near WHERE size(near) >= $k
    UNWIND near AS hit
    RETURN hit.node AS node, hit.score AS score
    UNION ALL
    // an UNWIND, not a WHERE: the planner moves a WHERE on `near` above the seek, which then walks
    // every key of the tenant's on each call, short or not
    UNWIND CASE WHEN size(near) < $k THEN [true] ELSE [] END AS short
    MATCH (node:Source {tenant: $tenant})
    WHERE node.uid IS NOT NULL AND node.embedding IS NOT NULL
      AND node.tenant = $tenant AND node.recorded_at <= known_at
      AND (node.expires_at IS NULL OR known_at < node.expires_at) AND node.text IS NOT NULL AND node.text <> ''
      AND (node.withheld_at IS NULL OR node.restored_at IS NOT NULL)
      AND ($subject IS NULL OR node.author = $subject OR node.about = $subject
           OR EXISTS { MATCH (f:Fact)-[:FROM]->(node) WHERE f.subject = $subject })
    WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
    ORDER BY score DESC, node.uid
    LIMIT $k
    RETURN node, score
  }
  RETURN node, 'vector' AS leg, score
}
WITH node AS s, leg, score, known_at
WHERE s.tenant = $tenant AND s.recorded_at <= known_at AND (s.expires_at IS NULL OR known_at < s.expires_at)
  AND s.text IS NOT NULL AND s.text <> ''
  // an erase request withholds its sources from recall until it is cancelled (docs/governance.md)
  AND (s.withheld_at IS NULL OR s.restored_at IS NOT NULL)
  AND ($subject IS NULL OR s.author = $subject OR s.about = $subject
       OR EXISTS { MATCH (f:Fact)-[:FROM]->(s) WHERE f.subject = $subject })
// each leg ranked on its own, at most $k hits a leg
WITH leg, s ORDER BY leg, score DESC, s.uid
WITH leg, collect(s)[0..$k] AS hits
UNWIND range(0, size(hits) - 1) AS i
WITH hits[i] AS s, leg, i + 1 AS rank
WITH s, sum(coalesce($weights[leg], 1.0) / ($rrf_k + rank)) AS rrf, collect(leg + ':' + toString(rank)) AS legs
WITH s, legs, rrf
     + CASE WHEN $session IS NOT NULL AND s.session = $session THEN $session_bonus ELSE 0.0 END
     // a named range: what was said inside it; what tells of a dated episode inside it ("I dyed my hair
     // last week", said on Apr 15, is about April; an undated episode is not evidence of when); what
     // was said in the $range_report_days after it looking back ("… last Friday", "yesterday", "… ago")
     + CASE WHEN $range_from IS NOT NULL AND (datetime($range_from) <= s.at AND s.at < datetime($range_to)
                 OR EXISTS { MATCH (ep:Episode)-[:FROM]->(s)
                             WHERE ep.start IS NOT NULL AND ep.recorded_at <= datetime($known_at)
                               AND ep.start < datetime($range_to) AND datetime($range_from) < ep.end }
                 OR (datetime($range_to) <= s.at AND s.at < datetime($range_to) + duration({days: $range_report_days})
                     AND s.text =~ '(?is).*\\b(?:yesterday|last\\s+\\w+|\\w+\\s+ago|the other day|recently)\\b.*'))
            THEN $range_bonus ELSE 0.0 END AS rrf
ORDER BY rrf DESC, s.uid
LIMIT $k
OPTIONAL MATCH (f:Fact)-[:FROM]->(s)
WITH s, legs, rrf,
     collect(CASE WHEN f IS NULL THEN null
                  ELSE {fact: f.uid, subject: f.subject, topic: f.topic, env: f.env, value: f.value,
                        kind: f.kind, quoted: f.quoted, valid_from: toString(f.valid_from),
                        held: EXISTS { ()-[:HOLDS]->(f) }} END) AS drawn
ORDER BY rrf DESC, s.uid
WITH datetime($known_at) AS known_at, collect({s: s, legs: legs, rrf: rrf, drawn: drawn}) AS found
UNWIND range(0, size(found) - 1) AS i
WITH found[i].s AS s, found[i] AS hit, i, known_at
CALL (s, i, known_at) {
  WITH s WHERE i < $neighbours
  CALL (s) {
    MATCH (n:Source) WHERE n.tenant = $tenant AND s.seq - 8 <= n.seq <= s.seq - 1
    WITH n ORDER BY n.seq DESC LIMIT 1
    RETURN n, -1 AS side
    UNION
    MATCH (n:Source) WHERE n.tenant = $tenant AND s.seq + 1 <= n.seq <= s.seq + 8
    WITH n ORDER BY n.seq ASC LIMIT 1
    RETURN n, 1 AS side
  }
  WITH s, n, side
  WHERE n.kind = s.kind AND coalesce(n.session, '') = coalesce(s.session, '')
    AND abs(duration.inSeconds(s.at, n.at).seconds) <= $window_minutes * 60
    AND n.recorded_at <= known_at AND (n.expires_at IS NULL OR known_at < n.expires_at)
    AND n.text IS NOT NULL AND n.text <> ''
    AND (n.withheld_at IS NULL OR n.restored_at IS NOT NULL)
    AND ($subject IS NULL OR n.author = $subject OR n.about = $subject
         OR EXISTS { MATCH (g:Fact)-[:FROM]->(n) WHERE g.subject = $subject })
  RETURN collect({side: side, source: n.uid, kind: n.kind, at: toString(n.at), author: n.author, text: n.text,
                  session: n.session, version: n.seq, expires_at: toString(n.expires_at),
                  relayed_by: n.relayed_by}) AS near
}
RETURN s.uid AS source, s.kind AS kind, toString(s.at) AS at, s.author AS author, s.text AS text,
       s.session AS session, s.about AS about, s.seq AS version, toString(s.expires_at) AS expires_at,
       hit.drawn AS drawn, hit.rrf AS rrf, hit.legs AS legs, near,
       s.relayed_by AS relayed_by
ORDER BY i
