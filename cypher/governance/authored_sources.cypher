// Sources a subject wrote (their text is about them).
MATCH (s:Source {tenant: $tenant})
WHERE s.uid IS NOT NULL AND s.author = $subject
RETURN s.uid AS uid
