// Working memory under erase: the erased items and every summary that quotes one of them (its
// `covers` names it), with what each summary replaced, so the erase can keep those items replaced.
UNWIND $keys AS k
MATCH (w:WorkingItem {tenant: $tenant, session: k.session, uid: k.uid})
OPTIONAL MATCH (s:WorkingItem {tenant: $tenant, session: w.session})
WHERE s.type = 'summary' AND w.uid IN s.covers
WITH collect(DISTINCT w) + collect(DISTINCT s) AS hit
UNWIND hit AS x
WITH DISTINCT x
RETURN x.session AS session, x.uid AS uid, x.seq AS seq, x.type AS type, coalesce(x.cites, []) AS cites
ORDER BY x.seq
