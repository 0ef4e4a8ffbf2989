// Change a card's status (reject, activate, roll back to a draft); cards are advice only.
MATCH (c:ExperienceCard {tenant: $tenant, uid: $uid})
SET c.status = $status, c.status_reason = $reason, c.status_by = $actor, c.status_at = datetime($at)
RETURN c.uid AS uid
