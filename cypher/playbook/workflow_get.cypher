// A workflow, its versions (newest first), and the approvals recorded for them.
MATCH (w:Workflow {tenant: $tenant, name: $name})
OPTIONAL MATCH (w)-[:VERSION]->(v:WorkflowVersion)
OPTIONAL MATCH (a:Approval)-[:APPROVES]->(v)
WITH w, v, collect(a {.approver, .version_hash, .comment, at: toString(a.at)}) AS approvals
ORDER BY v.number DESC
RETURN w {.*} AS workflow,
       collect(v {.*, checked_at: toString(v.checked_at), approvals: approvals}) AS versions
