// Playbook records an erase may reach (graphmem.playbooks.forget decides): every task outcome and
// every draft, active, rejected or superseded experience card, with their words and the outcomes
// each card was drawn from. The code keeps those that name the subject or come from an erased
// working session; a tenant's playbook records are few (a card per problem signature).
CALL () {
  MATCH (o:Outcome {tenant: $tenant})
  WHERE o.uid IS NOT NULL
  RETURN 'outcome' AS kind, o.uid AS uid,
         [coalesce(o.task, ''), coalesce(o.area, '')] + coalesce(o.steps, []) + coalesce(o.errors, []) AS words,
         [] AS evidence
  UNION ALL
  MATCH (c:ExperienceCard {tenant: $tenant})
  WHERE c.uid IS NOT NULL
  OPTIONAL MATCH (c)-[:EVIDENCE]->(o:Outcome)
  WITH c, collect(o.uid) AS evidence
  RETURN 'card' AS kind, c.uid AS uid,
         [coalesce(c.signature, ''), coalesce(c.area, '')] + coalesce(c.preconditions, []) + coalesce(c.recommended_steps, [])
           + coalesce(c.avoid_steps, []) + coalesce(c.validation, []) AS words,
         evidence
}
RETURN kind, uid, words, evidence
