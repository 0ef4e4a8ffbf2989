// load/topic_slots: every slot (subject, env) that has an assertion of one topic — the slots a
// changed declaration of that topic recomputes (graphmem.store.projection.handlers.op_topic).
// Declarations are rare, so this reads the tenant's facts of the topic once, not per event.
// Browser:  :param tenant => 't-many'
//           :param topic => 'allergy'
MATCH (f:Fact {tenant: $tenant, topic: $topic})
WHERE f.uid IS NOT NULL
RETURN DISTINCT f.subject AS subject, f.env AS env
