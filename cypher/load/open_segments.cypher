// The segments of some slots that are current in record time (superseded_at IS NULL).
UNWIND $slots AS s
MATCH (e:Entity {tenant: $tenant, uid: s.subject})-[h:HOLDS]->(f:Fact)
WHERE h.topic = s.topic AND h.env = s.env AND h.superseded_at IS NULL
RETURN s.key AS key, h.seg AS seg, f.uid AS fact, h.valid_from AS valid_from, h.valid_to AS valid_to,
       h.conflict AS conflict, h.recorded_at AS recorded_at
