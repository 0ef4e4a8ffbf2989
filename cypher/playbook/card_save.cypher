// Save a drafted experience card (a new version supersedes the card's active version) with its
// evidence links to the outcomes it was drawn from.
OPTIONAL MATCH (old:ExperienceCard {tenant: $tenant, signature: $signature})
WHERE old.status IN ['draft', 'active']
SET old.status = 'superseded'
WITH collect(old) AS olds
CREATE (c:ExperienceCard {tenant: $tenant, uid: $uid, signature: $signature, problem_signature: $signature,
                          area: $area, preconditions: $preconditions, recommended_steps: $recommended_steps,
                          avoid_steps: $avoid_steps, validation: $validation, confidence: $confidence,
                          status: 'draft', version: $version, created_at: datetime($at),
                          conflicts_with: []})
FOREACH (old IN olds | CREATE (c)-[:SUPERSEDES]->(old))
WITH c
CALL (c) {
  UNWIND $evidence AS ouid
  MATCH (o:Outcome {tenant: $tenant, uid: ouid})
  CREATE (c)-[:EVIDENCE]->(o)
}
RETURN c.uid AS uid, c.version AS version
