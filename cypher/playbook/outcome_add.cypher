// Record one task outcome (the raw material of L3 experience cards).
CREATE (o:Outcome {tenant: $tenant, uid: $uid, task: $task, area: $area, steps: $steps, outcome: $outcome,
                   errors: $errors, at: datetime($at), actor: $actor})
