// Assertions named by a later event through their ref labels.
UNWIND $refs AS ref
MATCH (f:Fact {tenant: $tenant, ref: ref})
RETURN f.ref AS ref, f.uid AS uid, f.subject AS subject, f.topic AS topic, f.env AS env
