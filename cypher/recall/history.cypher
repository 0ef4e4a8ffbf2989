// recall/history: facts a question about the past matches that held once but do not hold at
// $valid_at (as known at $known_at) — superseded, ended or expired. graphmem.recall.episodic shows them as
// history, with what holds now; never as the current value. Quoted claims are left to
// recall/quoted.
// Browser:  :param tenant => 't-addr'
//           :param lucene => '+tenant_key:"tk461418609550029124801188"^0 +("address" OR "live")'
//           :param subject => 'lin'
//           :param valid_at => toString(datetime())
//           :param known_at => toString(datetime())
//           :param k => 20
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
CALL db.index.fulltext.queryNodes('memory_text', $lucene, {limit: $k * 5}) YIELD node, score
WITH node AS f, score, valid_at, known_at
WHERE f.tenant = $tenant AND f:Fact AND f.kind = 'set' AND NOT coalesce(f.quoted, false)
  AND f.recorded_at <= known_at AND ($subject IS NULL OR f.subject = $subject)
MATCH (:Entity)-[h:HOLDS]->(f)
WHERE h.recorded_at <= known_at AND (h.superseded_at IS NULL OR known_at < h.superseded_at)
WITH f, score, valid_at, known_at, collect(h) AS held
WHERE NONE(h IN held WHERE h.valid_from <= valid_at AND (h.valid_to IS NULL OR valid_at < h.valid_to)
                           AND (h.expires_at IS NULL OR known_at < h.expires_at))
WITH f, score, [h IN held WHERE h.valid_from <= valid_at | h] AS before
WHERE size(before) > 0
WITH f, score, reduce(last = before[0], h IN before | CASE WHEN h.valid_from > last.valid_from THEN h ELSE last END) AS h
ORDER BY score DESC, f.uid
LIMIT $k
OPTIONAL MATCH (f)-[:FROM]->(s:Source)
RETURN f.uid AS fact, f.subject AS subject, f.topic AS topic, f.env AS env, f.value AS value,
       f.is_entity AS is_entity, f.authority AS authority, f.evidence AS evidence, f.seq AS version,
       toString(h.valid_from) AS valid_from, toString(h.valid_to) AS valid_to,
       toString(f.recorded_at) AS recorded_at, toString(coalesce(h.expires_at, f.expires_at)) AS expires_at,
       s.uid AS source, s.kind AS source_kind, toString(s.at) AS source_at, s.author AS source_author,
       s.text AS source_text, [] AS quoted_by, score,
       s.relayed_by AS source_relayed_by
