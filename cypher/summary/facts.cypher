// summary/facts: what a summary is built from — the subject's live facts now (every environment,
// the default view: confirmed, no session), optionally one topic.
// Browser:  :param tenant => 't-addr'
//           :param subject => 'lin'
//           :param topic => null
//           :param now => datetime()
WITH datetime($now) AS now
MATCH (e:Entity {tenant: $tenant, uid: $subject})-[h:HOLDS]->(f:Fact)
WHERE ($topic IS NULL OR h.topic = $topic)
  AND h.valid_from <= now AND (h.valid_to IS NULL OR now < h.valid_to)
  AND h.recorded_at <= now AND (h.superseded_at IS NULL OR now < h.superseded_at)
  AND (h.expires_at IS NULL OR now < h.expires_at)
RETURN f.uid AS fact, f.seq AS seq, h.topic AS topic, h.env AS env, f.value AS value, h.conflict AS conflict,
       f.authority AS authority, toString(h.valid_from) AS valid_from, toString(h.valid_to) AS valid_to,
       f.source AS source
ORDER BY topic, env, value
