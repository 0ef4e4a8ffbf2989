// Edit a requested version's text before approval. Its content hash changes; the hash that was
// checked does not, so approval is refused until the promotion is requested (and checked) again.
MATCH (v:WorkflowVersion {tenant: $tenant, uid: $uid})
WHERE v.status = 'requested'
SET v.text = $text, v.content_hash = $content_hash
RETURN v.uid AS uid
