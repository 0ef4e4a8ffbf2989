// Roll a card back: it is superseded and the version it replaced is active again.
MATCH (c:ExperienceCard {tenant: $tenant, uid: $uid})-[:SUPERSEDES]->(prev:ExperienceCard)
SET c.status = 'superseded', prev.status = 'active', c.status_by = $actor, c.status_at = datetime($at)
RETURN prev.uid AS uid
