// The outcomes recorded for one task signature, oldest first.
MATCH (o:Outcome {tenant: $tenant, task: $task})
RETURN o.uid AS uid, o.steps AS steps, o.outcome AS outcome, o.errors AS errors, toString(o.at) AS at
ORDER BY o.at, o.uid
