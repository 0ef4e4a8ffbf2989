// Ledger events that created or changed some facts, registered some sources, or quote them (or
// report an episode from them).
CALL () {
  UNWIND $facts AS fid
  MATCH (v:Event)-[:APPLIED_TO]->(:Fact {tenant: $tenant, uid: fid})
  RETURN v
  UNION
  UNWIND $event_ids AS eid
  MATCH (v:Event {tenant: $tenant, event_id: eid})
  RETURN v
  UNION
  MATCH (v:Event {tenant: $tenant})
  WHERE v.seq IS NOT NULL AND v.op IN ['quote', 'episode'] AND any(s IN $sources WHERE v.payload CONTAINS ('"' + s + '"'))
  RETURN v
}
RETURN DISTINCT v.seq AS seq, v.op AS op, v.payload AS payload, v.facts AS facts
