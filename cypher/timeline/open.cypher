// The segments of one (subject, topic, env) that are current in record time.
MATCH (e:Entity {tenant: $tenant, uid: $subject})-[h:HOLDS]->(f:Fact)
WHERE h.topic = $topic AND h.env = $env AND h.superseded_at IS NULL
RETURN h.seg AS seg, f.uid AS fact, h.valid_from AS valid_from, h.valid_to AS valid_to,
       h.conflict AS conflict, h.recorded_at AS recorded_at
