// How many versions a card signature already has.
MATCH (c:ExperienceCard {tenant: $tenant, signature: $signature})
RETURN count(c) AS n
