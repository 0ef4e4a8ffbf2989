// The rules (current L4 versions; safety ones first) and the active L3 cards of an area: a draft
// card is no advice until a person activates it (playbooks.activate_card).
MATCH (w:Workflow {tenant: $tenant})-[:VERSION]->(v:WorkflowVersion {uid: w.current_version})
WHERE w.name IS NOT NULL AND ($area IS NULL OR v.scenario = $area OR w.name = $area)
RETURN 'rule' AS kind, w.name AS name, w.safety AS safety, v.number AS version, v.text AS text,
       v.forbidden_steps AS forbidden_steps, v.required_steps AS required_steps, null AS card
UNION ALL
MATCH (c:ExperienceCard {tenant: $tenant})
WHERE c.uid IS NOT NULL AND c.status = 'active' AND ($area IS NULL OR c.area = $area)
RETURN 'card' AS kind, c.uid AS name, false AS safety, c.version AS version, null AS text,
       c.avoid_steps AS forbidden_steps, c.recommended_steps AS required_steps, c {.*, created_at: toString(c.created_at)} AS card
