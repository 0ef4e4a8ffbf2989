// Roll back (owner or delegate): the current version is marked rolled back and the newest earlier
// *approved* version becomes current again.
MATCH (w:Workflow {tenant: $tenant, name: $name})-[:VERSION]->(cur:WorkflowVersion {uid: w.current_version})
WHERE $actor = w.owner OR $actor IN w.delegates
MATCH (w)-[:VERSION]->(prev:WorkflowVersion)
WHERE prev.status = 'approved' AND prev.number < cur.number
WITH w, cur, prev ORDER BY prev.number DESC LIMIT 1
SET cur.status = 'rolled_back', cur.rolled_back_at = datetime($at), cur.rolled_back_by = $actor,
    w.current_version = prev.uid
RETURN prev.uid AS uid, prev.number AS number
