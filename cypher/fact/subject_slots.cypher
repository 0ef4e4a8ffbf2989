// fact/subject_slots: every (topic, env) a subject has ever had an assertion about — the slots
// mem.facts(subject) asks as_of_many about (graphmem.recall.listing). Uses the fact_subject index.
// Browser:  :param tenant => 't-addr'
//           :param subject => 'lin'
MATCH (f:Fact {tenant: $tenant, subject: $subject})
WHERE f.uid IS NOT NULL AND f.kind = 'set'
RETURN DISTINCT f.topic AS topic, f.env AS env
ORDER BY topic, env
