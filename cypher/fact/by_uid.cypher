// One assertion by its uid (a correction retracts the fact it corrects by uid).
MATCH (f:Fact {tenant: $tenant, uid: $uid})
RETURN f.uid AS uid, f.subject AS subject, f.topic AS topic, f.env AS env, f.status AS status,
       f.confirmed_at AS confirmed_at, f.rejected_at AS rejected_at, f.retracted_at AS retracted_at
