// One experience card with the outcomes it was drawn from.
MATCH (c:ExperienceCard {tenant: $tenant, uid: $uid})
OPTIONAL MATCH (c)-[:EVIDENCE]->(o:Outcome)
RETURN c {.*, created_at: toString(c.created_at)} AS card,
       collect(o {.uid, .steps, .outcome, .errors}) AS evidence
