// The assertion a later event names by its ref.
MATCH (f:Fact {tenant: $tenant, ref: $ref})
RETURN f.uid AS uid, f.subject AS subject, f.topic AS topic, f.env AS env, f.status AS status,
       f.confirmed_at AS confirmed_at, f.rejected_at AS rejected_at, f.retracted_at AS retracted_at
