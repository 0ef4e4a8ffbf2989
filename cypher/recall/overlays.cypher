// recall/overlays: the slots where the asked view differs from the materialised default one —
// L0 facts of this session, or candidates (when asked for) of the subjects in scope. recall
// resolves those slots with the same rules as as_of(session=…, include_candidates=…).
UNWIND [x IN [$session] WHERE x IS NOT NULL] AS session
MATCH (f:Fact {tenant: $tenant, session: session})
WHERE f.env IN $envs
RETURN DISTINCT f.subject AS subject, f.topic AS topic, f.env AS env
UNION
UNWIND CASE WHEN $include_candidates THEN $subjects ELSE [] END AS subject
MATCH (f:Fact {tenant: $tenant, subject: subject})
WHERE f.status = 'candidate' AND f.env IN $envs
RETURN DISTINCT f.subject AS subject, f.topic AS topic, f.env AS env
