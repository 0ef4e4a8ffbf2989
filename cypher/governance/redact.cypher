// Replace erased events' content with a content-free tombstone; their order and time stay.
UNWIND $seqs AS seq
MATCH (v:Event {tenant: $tenant, seq: seq})
SET v.payload = '{"erased": true, "op": "' + v.op + '"}', v.facts = [], v.event_id = null, v.reason = null
WITH v
OPTIONAL MATCH (v)-[r:APPLIED_TO]->()
DELETE r
