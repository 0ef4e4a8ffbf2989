// Working memory: the tenant's sessions, newest activity first (status open or closed).
MATCH (w:WorkingSession {tenant: $tenant})
WHERE w.session IS NOT NULL AND ($status IS NULL OR w.status = $status)
RETURN w.session AS session, w.status AS status, toString(w.opened_at) AS opened_at,
       toString(w.last_at) AS last_at, w.checkpoint_seq AS checkpoint_seq, w.added AS added
ORDER BY w.last_at DESC, w.session
LIMIT $limit
