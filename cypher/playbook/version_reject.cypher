// Reject a requested version (owner or delegate); it never becomes current.
MATCH (w:Workflow {tenant: $tenant, name: $name})-[:VERSION]->(v:WorkflowVersion {uid: $uid})
WHERE v.status = 'requested' AND ($actor = w.owner OR $actor IN w.delegates)
SET v.status = 'rejected', v.rejected_by = $actor, v.rejected_at = datetime($at), v.reject_reason = $reason
RETURN v.uid AS uid
