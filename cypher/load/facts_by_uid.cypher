// Assertions named by a later event through their uids.
UNWIND $uids AS uid
MATCH (f:Fact {tenant: $tenant, uid: uid})
RETURN f.ref AS ref, f.uid AS uid, f.subject AS subject, f.topic AS topic, f.env AS env
