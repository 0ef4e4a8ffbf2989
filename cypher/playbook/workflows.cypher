// Workflows of a tenant with their current version number.
MATCH (w:Workflow {tenant: $tenant})
WHERE w.name IS NOT NULL
OPTIONAL MATCH (w)-[:VERSION]->(v:WorkflowVersion {uid: w.current_version})
RETURN w.name AS name, w.owner AS owner, w.safety AS safety, v.number AS current, v.content_hash AS hash
ORDER BY name
