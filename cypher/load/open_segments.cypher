// The segments of some slots that are not over in record time as of $after (the ledger's last
// record time): current ones (superseded_at IS NULL or later), and ones an expiry has scheduled.
// A segment of a slot always points at one of the slot's own facts, so the search starts from
// those (the fact_slot index) and walks each fact's few HOLDS edges; starting from the subject
// would walk every segment the subject has, in every topic.
// Times come back as ISO text: the driver unpacks text far faster than temporal values.
UNWIND $slots AS s
MATCH (f:Fact {tenant: $tenant, subject: s.subject, topic: s.topic, env: s.env})<-[h:HOLDS]-(e:Entity)
USING INDEX f:Fact(tenant, subject, topic, env)
WHERE e.uid = s.subject AND h.topic = s.topic AND h.env = s.env
  AND (h.superseded_at IS NULL OR h.superseded_at > datetime($after))
RETURN s.key AS key, h.seg AS seg, f.uid AS fact, toString(h.valid_from) AS valid_from, toString(h.valid_to) AS valid_to,
       h.conflict AS conflict, toString(h.recorded_at) AS recorded_at, toString(h.superseded_at) AS superseded_at,
       toString(h.expires_at) AS expires_at
