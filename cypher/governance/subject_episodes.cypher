// Episodes of a subject (what they did), and the sources that report them: erasing the subject
// erases those sources whole, and so the episodes.
MATCH (ep:Episode {tenant: $tenant, who: $subject})
RETURN ep.uid AS uid, ep.source AS source
