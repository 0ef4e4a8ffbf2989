// Mark a card as disagreeing with L4 rules (L4 wins; the card keeps the mark).
MATCH (c:ExperienceCard {tenant: $tenant, uid: $uid})
SET c.conflicts_with = $workflows
