// One erase request (its ledger event, found by its id) and whether it is closed: cancelled
// (an erase_cancel names it) or done (an erase tombstone names it) before ledger entry $before.
// Browser:  :param tenant => 'acme'
//           :param request => 'er-1a2b3c'
//           :param before => 1000000
MATCH (v:Event {tenant: $tenant, event_id: $request})
OPTIONAL MATCH (c:Event {tenant: $tenant, op: 'erase_cancel'})
WHERE c.seq < $before AND c.payload CONTAINS ('"request": "' + $request + '"')
OPTIONAL MATCH (d:Event {tenant: $tenant, op: 'erase'})
WHERE d.seq < $before AND d.payload CONTAINS ('"request": "' + $request + '"')
RETURN v.op AS op, v.seq AS seq, v.payload AS payload, v.actor AS actor, v.reason AS reason,
       toString(v.recorded_at) AS recorded_at,
       CASE WHEN d IS NOT NULL THEN 'erased' WHEN c IS NOT NULL THEN 'cancelled' END AS closed
LIMIT 1
