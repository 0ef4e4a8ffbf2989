// summary/next_change: the earliest instant after $now at which what a summary of $subject (or of
// one $topic) would say changes by itself, with no new event: a valid_from still to come, a
// valid_to, an expiry, or a record-time end or start that an expiry has scheduled. Null: never.
// Browser:  :param tenant => 't-addr'
//           :param subject => 'lin'
//           :param topic => null
//           :param now => datetime()
WITH datetime($now) AS now
MATCH (e:Entity {tenant: $tenant, uid: $subject})-[h:HOLDS]->(f:Fact)
WHERE ($topic IS NULL OR h.topic = $topic) AND (h.superseded_at IS NULL OR now < h.superseded_at)
UNWIND [h.valid_from, h.valid_to, h.recorded_at, h.superseded_at, h.expires_at] AS t
WITH now, t WHERE t IS NOT NULL AND t > now
RETURN toString(min(t)) AS changes_at
