// as_of_many: as_of.cypher for several slots in one round trip — the same view (materialised
// segments live at $valid_at as known at $known_at), one row per slot in the order given, its
// segments collected in as_of's order. recall uses it to say, for every message and old fact it
// shows, what holds now (graphmem.recall.episodic.mark_replaced, history_items).
// Browser:  :param tenant => 'demo'
//           :param slots => [{subject: 'lin', topic: 'home_address', env: ''}]
//           :param valid_at => toString(datetime())
//           :param known_at => toString(datetime())
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
UNWIND range(0, size($slots) - 1) AS i
WITH i, $slots[i] AS slot, valid_at, known_at
OPTIONAL MATCH (t:Topic {tenant: $tenant, name: slot.topic})
WITH i, slot, valid_at, known_at, coalesce(t.cardinality, 'one') AS cardinality,
     coalesce(t.expiring, true) AS expiring
// Expired values only where the topic has facts that can expire, in a COLLECT subquery run only
// when its branch is taken (as_of.cypher says why).
WITH i, slot, valid_at, known_at, cardinality, CASE WHEN expiring THEN COLLECT {
  MATCH (x:Fact {tenant: $tenant, subject: slot.subject, topic: slot.topic, env: slot.env})
  // The slot's own facts, always, by a seek: planned from index statistics, the lookup could
  // scan every tenant's expiring facts while an index still looked empty, and a plain USING
  // INDEX hint can be met by scanning the hinted index (docs/scaling.md).
  USING INDEX SEEK x:Fact(tenant, subject, topic, env)
  WHERE x.kind = 'set' AND x.expires_at <= known_at AND x.recorded_at <= known_at
    AND x.valid_from <= valid_at AND (x.valid_to IS NULL OR valid_at < x.valid_to)
    AND (x.retracted_at IS NULL OR x.retracted_at > x.expires_at)
    AND (x.rejected_at IS NULL OR x.rejected_at > x.expires_at)
  RETURN {fact: x.uid, value: x.value, expires_at: toString(x.expires_at)}
} ELSE [] END AS expired
CALL (slot, valid_at, known_at) {
  OPTIONAL MATCH (e:Entity {tenant: $tenant, uid: slot.subject})-[h:HOLDS]->(f:Fact)
  // From the subject's own segments, by a seek, whatever the statistics say (as above)
  USING INDEX SEEK e:Entity(tenant, uid)
  WHERE h.topic = slot.topic AND h.env = slot.env
    AND h.valid_from <= valid_at AND (h.valid_to IS NULL OR valid_at < h.valid_to)
    AND h.recorded_at <= known_at AND (h.superseded_at IS NULL OR known_at < h.superseded_at)
    AND (h.expires_at IS NULL OR known_at < h.expires_at)
  WITH h, f ORDER BY h.valid_from, f.recorded_at DESC, f.value
  RETURN collect(CASE WHEN f IS NULL THEN null ELSE
           {fact: f.uid, value: f.value, is_entity: f.is_entity, conflict: h.conflict, source: f.source,
            authority: f.authority, status: f.status, author: f.author, valid_from: toString(h.valid_from),
            valid_to: toString(h.valid_to), recorded_at: toString(f.recorded_at)} END) AS segments
}
RETURN i, cardinality, expired, segments
ORDER BY i
