// Times arrive as ISO 8601 text and become DateTime here: the driver packs text far faster than temporal values.
// Append events to the tenant's ledger and move its head; same transaction as their effect.
// Each event carries the digest of its content and a hash chained to the previous event's
// (graphmem.store.chain); the head keeps the last hash.
MATCH (h:LedgerHead {tenant: $tenant})
SET h.seq = $seq, h.last_recorded_at = datetime($last_recorded_at), h.last_hash = $last_hash, h.locked_by = null
WITH h
UNWIND $events AS v
CREATE (e:Event {tenant: $tenant, seq: v.seq, op: v.op, payload: v.payload, actor: v.actor, reason: v.reason,
                 recorded_at: datetime(v.recorded_at), event_id: v.event_id, facts: v.facts,
                 digest: v.digest, hash: v.hash})
// Link each new event to the facts it created or changed here, in the same pass (a replay, whose
// events are stored already, links them with write/links instead).
WITH e, v
CALL (e, v) {
  UNWIND v.facts AS uid
  WITH DISTINCT uid
  MATCH (f:Fact {tenant: $tenant, uid: uid})
  CREATE (e)-[:APPLIED_TO]->(f)
}
