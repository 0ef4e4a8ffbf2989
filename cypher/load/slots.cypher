// Every assertion of some slots (subject, topic, env): what the temporal rules resolve over.
// Times come back as ISO text: the driver unpacks text far faster than temporal values.
UNWIND $slots AS s
MATCH (f:Fact {tenant: $tenant, subject: s.subject, topic: s.topic, env: s.env})
RETURN s.key AS key, f.uid AS uid, f.seq AS seq, f.kind AS kind, f.value AS value, f.is_entity AS is_entity,
       toString(f.valid_from) AS valid_from, toString(f.valid_to) AS valid_to, toString(f.recorded_at) AS recorded_at,
       f.authority AS authority, f.session AS session, f.status AS status,
       toString(f.confirmed_at) AS confirmed_at, toString(f.rejected_at) AS rejected_at, toString(f.retracted_at) AS retracted_at,
       f.author AS author, toString(f.said_at) AS said_at, f.quoted AS quoted, f.source AS source, f.ref AS ref,
       toString(f.expires_at) AS expires_at,
       f.asserted_authority AS asserted_authority, toString(f.promoted_at) AS promoted_at,
       toString(f.withheld_at) AS withheld_at, toString(f.restored_at) AS restored_at
