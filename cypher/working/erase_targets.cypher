// Working memory under erase (graphmem.governance): the ledger events that added items a subject
// wrote, or that are (or became, at a session's close) one of the erased sources, and the events of
// summaries that quote any of them — so their text leaves the ledger with the rest.
MATCH (w:WorkingItem {tenant: $tenant})
WHERE ($subject IS NOT NULL AND w.author = $subject) OR w.source IN $sources
   OR (w.session + '/' + w.uid) IN $sources
WITH collect(w) AS hit
UNWIND hit AS w
OPTIONAL MATCH (s:WorkingItem {tenant: $tenant, session: w.session})
WHERE s.type = 'summary' AND w.uid IN s.covers
WITH collect(DISTINCT w.seq) + collect(DISTINCT s.seq) AS seqs
UNWIND seqs AS seq
MATCH (v:Event {tenant: $tenant, seq: seq})
RETURN DISTINCT v.seq AS seq, v.op AS op, v.payload AS payload, v.facts AS facts
