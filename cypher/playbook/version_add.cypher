// A new version requested for promotion: immutable content, its hash, the check results, and a
// PREVIOUS link to the version before it. It is not current: only an approval makes it so.
MATCH (w:Workflow {tenant: $tenant, name: $name})
OPTIONAL MATCH (w)-[:VERSION]->(prev:WorkflowVersion)
WITH w, prev ORDER BY prev.number DESC LIMIT 1
CREATE (v:WorkflowVersion {tenant: $tenant, uid: $uid, workflow: $name, number: coalesce(prev.number, 0) + 1,
                           text: $text, scenario: $scenario, inputs: $inputs, outputs: $outputs,
                           tool_permissions: $tool_permissions, validation_rules: $validation_rules,
                           forbidden_steps: $forbidden_steps, required_steps: $required_steps,
                           content_hash: $content_hash, checked_hash: $content_hash, check_passed: $check_passed,
                           replay_passed: $replay_passed, check_report: $check_report, status: 'requested',
                           from_card: $card, requested_by: $actor, checked_at: datetime($at),
                           used: 0, succeeded: 0, failed: 0, regression: false})
CREATE (w)-[:VERSION]->(v)
FOREACH (p IN CASE WHEN prev IS NULL THEN [] ELSE [prev] END | CREATE (v)-[:PREVIOUS]->(p))
WITH v
OPTIONAL MATCH (c:ExperienceCard {tenant: $tenant, uid: $card})
FOREACH (x IN CASE WHEN c IS NULL THEN [] ELSE [c] END | CREATE (v)-[:PROMOTED_FROM]->(x))
RETURN v.uid AS uid, v.number AS number
