// Experience cards of a tenant (optionally of one area), newest first.
MATCH (c:ExperienceCard {tenant: $tenant})
WHERE c.uid IS NOT NULL AND ($area IS NULL OR c.area = $area) AND ($status IS NULL OR c.status = $status)
RETURN c {.*, created_at: toString(c.created_at)} AS card
ORDER BY c.created_at DESC, c.uid
