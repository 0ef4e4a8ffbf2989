// What changed for a subject between two record times: every assertion, withdrawal and
// confirmation the store learned in [$from, $to), in ledger order.
// Browser:  :param tenant => 'demo'
//           :param subject => 'lin'
//           :param from => datetime('2026-09-15T00:00:00Z')
//           :param to => datetime('2026-10-10T00:00:00Z')
WITH datetime($from) AS from, datetime($to) AS to
MATCH (e:Entity {tenant: $tenant, uid: $subject})-[:HAS_FACT]->(f:Fact)
WITH f, from, to,
     [x IN [['asserted', f.recorded_at], ['confirmed', f.confirmed_at], ['rejected', f.rejected_at],
            ['retracted', f.retracted_at]] WHERE x[1] IS NOT NULL AND from <= x[1] < to] AS changes
UNWIND changes AS change
RETURN change[1] AS at, change[0] AS what, f.topic AS topic, f.env AS env, f.kind AS kind, f.value AS value,
       f.valid_from AS valid_from, f.valid_to AS valid_to, f.source AS source, f.quoted AS quoted
ORDER BY at, f.seq
