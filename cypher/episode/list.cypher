// episode/list: what people did, and when — episodes whose [start, end) overlaps [$since, $until)
// (an episode without a start happened some time before its end: it overlaps any window before that),
// optionally of one person ($who, any case: 'caroline' finds Caroline's) and whose "what" or place contains $text (case-insensitive),
// as known at $known_at. Episodes of a source an erase request withholds, or that expired, take
// no part. Newest first.
// Browser:  :param tenant => 'conv-26'
//           :param who => 'Caroline'
//           :param since => '2023-01-01T00:00:00Z'
//           :param until => '2024-01-01T00:00:00Z'
//           :param text => 'support group'
//           :param known_at => toString(datetime())
//           :param limit => 50
WITH datetime($known_at) AS known_at
MATCH (ep:Episode {tenant: $tenant})-[:FROM]->(s:Source {tenant: $tenant})
WHERE ep.uid IS NOT NULL
  AND ($who IS NULL OR toLower(ep.who) = toLower($who))
  AND ($since IS NULL OR ep.end > datetime($since))
  AND ($until IS NULL OR ep.start IS NULL OR ep.start < datetime($until))
  AND ($text IS NULL OR toLower(ep.what) CONTAINS toLower($text) OR toLower(coalesce(ep.where, '')) CONTAINS toLower($text))
  AND ep.recorded_at <= known_at
  AND (s.expires_at IS NULL OR known_at < s.expires_at)
  AND (s.withheld_at IS NULL OR s.restored_at IS NOT NULL)
RETURN ep.uid AS uid, ep.who AS who, ep.what AS what, ep.where AS where, toString(ep.start) AS start,
       toString(ep.end) AS end, ep.source AS source, toString(ep.said_at) AS said_at, ep.evidence AS evidence,
       toString(ep.recorded_at) AS recorded_at, ep.planned AS planned, s.text AS text,
       s.relayed_by AS relayed_by
ORDER BY coalesce(ep.start, ep.end) DESC, ep.uid
LIMIT $limit
