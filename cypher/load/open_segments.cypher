// The segments of some slots that are current in record time (superseded_at IS NULL).
// Times come back as ISO text: the driver unpacks text far faster than temporal values.
UNWIND $slots AS s
MATCH (e:Entity {tenant: $tenant, uid: s.subject})-[h:HOLDS]->(f:Fact)
WHERE h.topic = s.topic AND h.env = s.env AND h.superseded_at IS NULL
RETURN s.key AS key, h.seg AS seg, f.uid AS fact, toString(h.valid_from) AS valid_from, toString(h.valid_to) AS valid_to,
       h.conflict AS conflict, toString(h.recorded_at) AS recorded_at
