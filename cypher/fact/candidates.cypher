// fact/candidates: candidate facts waiting for a confirm or a reject (of one subject, or all when
// $subject is null), as known at $known_at — not confirmed, rejected, retracted, expired or withheld
// by an erase request by then. What mem.candidates() lists (graphmem.recall.listing); a candidate
// never answers "what is true" until it is confirmed (docs/design.md §5).
// Browser:  :param tenant => 't-cand'
//           :param subject => null
//           :param known_at => datetime()
//           :param limit => 100
WITH datetime($known_at) AS known_at
MATCH (f:Fact {tenant: $tenant})
WHERE f.uid IS NOT NULL AND f.kind = 'set' AND f.status = 'candidate'
  AND ($subject IS NULL OR f.subject = $subject)
  AND f.recorded_at <= known_at
  AND (f.confirmed_at IS NULL OR f.confirmed_at > known_at)
  AND (f.rejected_at IS NULL OR f.rejected_at > known_at)
  AND (f.retracted_at IS NULL OR f.retracted_at > known_at)
  AND (f.expires_at IS NULL OR f.expires_at > known_at)
  AND (f.withheld_at IS NULL OR f.restored_at IS NOT NULL)
OPTIONAL MATCH (s:Source {tenant: $tenant, uid: f.source})
WITH f, s
WHERE s IS NULL OR s.withheld_at IS NULL OR s.restored_at IS NOT NULL
RETURN f.uid AS fact, f.subject AS subject, f.topic AS topic, f.env AS env, f.value AS value,
       f.is_entity AS is_entity, f.valid_from AS valid_from, f.valid_to AS valid_to,
       f.recorded_at AS recorded_at, f.expires_at AS expires_at, f.authority AS authority,
       f.status AS status, f.confidence AS confidence, f.seq AS version, f.ref AS ref, f.author AS author,
       f.evidence AS evidence, s.uid AS source, s.kind AS source_kind, s.at AS source_at,
       s.author AS source_author, s.text AS source_text,
       s.relayed_by AS source_relayed_by
ORDER BY f.seq
LIMIT $limit
