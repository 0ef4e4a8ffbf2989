// as_of: what holds for one (subject, topic, env) at valid time $valid_at, as known at $known_at.
// Reads the materialised timeline: HOLDS segments carry [valid_from, valid_to) and
// [recorded_at, superseded_at), so no Fact has to be visited to filter by time.
// Several rows: a many-valued topic, or a conflict (h.conflict = true). No row: nothing holds.
// Browser:  :param tenant => 't-addr'
//           :param subject => 'lin'
//           :param topic => 'home_address'
//           :param env => ''
//           :param valid_at => datetime('2026-10-05T00:00:00Z')
//           :param known_at => datetime()
// Times are returned as ISO text (cheap for drivers to unpack; readable in Browser).
// The first row also says the topic's cardinality (one round trip for the whole answer); with no
// answer there is exactly one row whose fact is null.
// Times come from graphmem as {epochSeconds, nanosecond} maps (graphmem.store.projection.values.instant: the
// cheapest to send and to build); DateTime or ISO text work too, as datetime() takes all three.
WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at
OPTIONAL MATCH (t:Topic {tenant: $tenant, name: $topic})
WITH valid_at, known_at, coalesce(t.cardinality, 'one') AS cardinality, coalesce(t.expiring, true) AS expiring
// Values that would speak about valid_at but expired by known_at: the answer notes them
// (an expired value, or the one that resumed after it). Only in a topic some of whose facts can
// expire (write/facts sets t.expiring): elsewhere the lookup is skipped, a tenth of a read's time.
// A COLLECT subquery under CASE is run only when its branch is taken; a CALL subquery behind a
// WHERE costs its operators on every read, skipped or not (docs/scaling.md, "What a read costs").
WITH valid_at, known_at, cardinality, CASE WHEN expiring THEN COLLECT {
  MATCH (x:Fact {tenant: $tenant, subject: $subject, topic: $topic, env: $env})
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
OPTIONAL MATCH (e:Entity {tenant: $tenant, uid: $subject})-[h:HOLDS]->(f:Fact)
// From the subject's own segments, by a seek, whatever the statistics say (as above)
USING INDEX SEEK e:Entity(tenant, uid)
WHERE h.topic = $topic AND h.env = $env
  AND h.valid_from <= valid_at AND (h.valid_to IS NULL OR valid_at < h.valid_to)
  AND h.recorded_at <= known_at AND (h.superseded_at IS NULL OR known_at < h.superseded_at)
  AND (h.expires_at IS NULL OR known_at < h.expires_at)
RETURN cardinality, expired, f.uid AS fact, f.value AS value, f.is_entity AS is_entity, h.conflict AS conflict,
       f.source AS source, f.authority AS authority, f.status AS status, f.author AS author,
       toString(h.valid_from) AS valid_from, toString(h.valid_to) AS valid_to, toString(f.recorded_at) AS recorded_at,
       // the agent that relayed the source's words as its author's (graphmem.core.relay), if one did
       [(f)-[:FROM]->(s:Source) | s.relayed_by][0] AS relayed_by
ORDER BY h.valid_from, f.recorded_at DESC, f.value
