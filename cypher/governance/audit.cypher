// The ledger between two record times, optionally only events that touched a subject's facts,
// with what each override replaced (before/after).
WITH datetime($since) AS since, datetime($until) AS until
MATCH (v:Event {tenant: $tenant})
WHERE v.recorded_at >= since AND v.recorded_at < until
OPTIONAL MATCH (v)-[:APPLIED_TO]->(f:Fact)
WITH v, f
WHERE $subject IS NULL OR f.subject = $subject
OPTIONAL MATCH (f)-[:SUPERSEDES]->(old:Fact)
WITH v, collect(DISTINCT f {.uid, .subject, .topic, .env, .value, .kind}) AS facts,
     collect(DISTINCT old {.uid, .value, .source}) AS replaced
RETURN v.seq AS seq, v.op AS op, toString(v.recorded_at) AS recorded_at, v.actor AS actor, v.reason AS reason,
       v.payload AS payload, facts, replaced
ORDER BY seq
