// Every assertion about one (subject, topic, env): what the temporal rules resolve over.
MATCH (f:Fact {tenant: $tenant, subject: $subject, topic: $topic, env: $env})
RETURN f.uid AS uid, f.seq AS seq, f.kind AS kind, f.value AS value, f.is_entity AS is_entity,
       f.valid_from AS valid_from, f.valid_to AS valid_to, f.recorded_at AS recorded_at,
       f.authority AS authority, f.session AS session, f.status AS status,
       f.confirmed_at AS confirmed_at, f.rejected_at AS rejected_at, f.retracted_at AS retracted_at,
       f.author AS author, f.said_at AS said_at, f.quoted AS quoted, f.source AS source,
       f.expires_at AS expires_at,
       f.asserted_authority AS asserted_authority, f.promoted_at AS promoted_at,
       f.withheld_at AS withheld_at, f.restored_at AS restored_at
ORDER BY f.seq
