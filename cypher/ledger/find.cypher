// An event already applied under this idempotency id (a retried write applies once).
MATCH (v:Event {tenant: $tenant, event_id: $event_id})
RETURN v.seq AS seq, v.op AS op, v.recorded_at AS recorded_at, v.facts AS facts
