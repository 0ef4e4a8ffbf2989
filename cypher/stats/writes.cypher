// stats: ledger events recorded since $since, by op and author (actor).
// Browser:  :param tenant => 't-addr'
//           :param since => '1970-01-01T00:00:00Z'
MATCH (v:Event {tenant: $tenant})
WHERE v.seq IS NOT NULL AND v.recorded_at >= datetime($since)
RETURN v.op AS op, coalesce(v.actor, '(none)') AS author, count(*) AS n
ORDER BY op, author
