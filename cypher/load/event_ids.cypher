// Events already applied under these idempotency ids (a retried write applies once).
UNWIND $ids AS id
MATCH (v:Event {tenant: $tenant, event_id: id})
RETURN v.event_id AS event_id, v.seq AS seq, v.op AS op, v.recorded_at AS recorded_at, v.facts AS facts
