// Which workflows changed since a date, and who approved them (for analysts).
// Browser:  :param tenant => 'acme'
//           :param since => datetime('2026-11-01T00:00:00Z')
MATCH (a:Approval {tenant: $tenant})-[:APPROVES]->(v:WorkflowVersion)
WHERE a.at >= datetime($since)
RETURN v.workflow AS workflow, v.number AS version, a.approver AS approver, toString(a.at) AS approved_at,
       a.comment AS comment, v.status AS status_now
ORDER BY approved_at DESC
