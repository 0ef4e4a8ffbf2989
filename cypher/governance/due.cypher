// Facts whose expiry has come and that the sweeper has not recorded yet.
MATCH (f:Fact {tenant: $tenant})
WHERE f.expires_at <= datetime($now) AND f.expired_at IS NULL
RETURN f.uid AS uid
ORDER BY f.seq
LIMIT $limit
