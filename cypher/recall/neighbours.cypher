// recall/neighbours: the turn before and the turn after each message recall found — what it
// answered and what answered it. Neighbours are the nearest sources in ledger order (the
// source_seq index, within 8 ledger entries: a bounded range seek) of the same kind and session, said within $window_minutes, and pass the same
// scope as recall/messages (tenant, known_at, expiry, subject).
// Browser:  :param tenant => 'conv-26'
//           :param uids => ['D1:3']
//           :param known_at => toString(datetime())
//           :param subject => null
//           :param window_minutes => 120
WITH datetime($known_at) AS known_at
UNWIND range(0, size($uids) - 1) AS i
MATCH (s:Source {tenant: $tenant, uid: $uids[i]})
CALL (s) {
  MATCH (n:Source) WHERE n.tenant = $tenant AND s.seq - 8 <= n.seq <= s.seq - 1
  WITH n ORDER BY n.seq DESC LIMIT 1
  RETURN n, -1 AS side
  UNION
  MATCH (n:Source) WHERE n.tenant = $tenant AND s.seq + 1 <= n.seq <= s.seq + 8
  WITH n ORDER BY n.seq ASC LIMIT 1
  RETURN n, 1 AS side
}
WITH s, n, side, known_at
WHERE n.kind = s.kind AND coalesce(n.session, '') = coalesce(s.session, '')
  AND abs(duration.inSeconds(s.at, n.at).seconds) <= $window_minutes * 60
  AND n.recorded_at <= known_at AND (n.expires_at IS NULL OR known_at < n.expires_at)
  AND n.text IS NOT NULL AND n.text <> ''
  AND (n.withheld_at IS NULL OR n.restored_at IS NOT NULL)
  AND ($subject IS NULL OR n.author = $subject OR n.about = $subject
       OR EXISTS { MATCH (f:Fact)-[:FROM]->(n) WHERE f.subject = $subject })
RETURN s.uid AS of, side, n.uid AS source, n.kind AS kind, toString(n.at) AS at, n.author AS author, n.text AS text,
       n.session AS session, n.seq AS version, toString(n.expires_at) AS expires_at
