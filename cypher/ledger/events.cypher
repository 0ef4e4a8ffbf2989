// The tenant's ledger in order, for replay (rebuild) and audit.
MATCH (v:Event {tenant: $tenant})
WHERE v.seq > $after
RETURN v.seq AS seq, v.op AS op, v.payload AS payload, v.recorded_at AS recorded_at,
       v.event_id AS event_id, v.actor AS actor, v.reason AS reason, v.digest AS digest, v.hash AS hash
ORDER BY v.seq
LIMIT $limit
