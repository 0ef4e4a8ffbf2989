// recall/quoted: claims that reached the store through a quote (an old document forwarded today) for
// the slots a context shows. They are history, dated at the old document, and never the current
// value; a context lists them flagged so an agent does not mistake the forwarded text for news.
// Browser:  :param tenant => 't-addr'
//           :param slots => [{subject: 'lin', topic: 'home_address', env: ''}]
//           :param known_at => datetime()
WITH datetime($known_at) AS known_at
UNWIND $slots AS slot
MATCH (f:Fact {tenant: $tenant, subject: slot.subject, topic: slot.topic, env: slot.env})
WHERE f.quoted AND f.recorded_at <= known_at
  AND (f.retracted_at IS NULL OR known_at < f.retracted_at)
  AND (f.rejected_at IS NULL OR known_at < f.rejected_at)
MATCH (f)-[:FROM]->(old:Source)
MATCH (new:Source)-[q:QUOTES]->(old)
WHERE q.recorded_at <= known_at
RETURN f.uid AS fact, f.subject AS subject, f.topic AS topic, f.env AS env, f.value AS value,
       f.seq AS version, toString(f.valid_from) AS valid_from, old.uid AS source, old.kind AS source_kind,
       toString(old.at) AS source_at, old.author AS source_author, old.text AS source_text,
       new.uid AS quoted_in, toString(new.at) AS quoted_at, new.text AS quoted_text
ORDER BY f.subject, f.topic, quoted_at DESC
