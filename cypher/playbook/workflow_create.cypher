// Create a workflow (owned; no version is current until an owner approves one). MERGE, not
// CREATE: two first requests for the same workflow at once both find one workflow (the key
// constraint serialises them); the first request's owner and settings stand.
MERGE (w:Workflow {tenant: $tenant, name: $name})
ON CREATE SET w.owner = $owner, w.delegates = $delegates, w.safety = $safety, w.created_at = datetime($at)
