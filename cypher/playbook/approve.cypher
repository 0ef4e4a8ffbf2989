// Approve a version: only the workflow's owner or a named delegate, only a version whose checks
// passed, only if its content is what was checked and what the approver saw ($version_hash).
// The approval is recorded in the graph in the same statement that makes the version current.
MATCH (w:Workflow {tenant: $tenant, name: $name})-[:VERSION]->(v:WorkflowVersion {uid: $uid})
WHERE v.status = 'requested' AND ($approver = w.owner OR $approver IN w.delegates)
  AND v.check_passed AND v.replay_passed
  AND v.content_hash = v.checked_hash AND v.content_hash = $version_hash
OPTIONAL MATCH (w)-[:VERSION]->(cur:WorkflowVersion {uid: w.current_version})
SET v.status = 'approved', v.approved_at = datetime($at), w.current_version = v.uid,
    v.released_from = cur.uid
CREATE (a:Approval {tenant: $tenant, approver: $approver, at: datetime($at), version_hash: $version_hash,
                    comment: $comment, workflow: $name})-[:APPROVES]->(v)
RETURN v.uid AS uid, v.number AS number
