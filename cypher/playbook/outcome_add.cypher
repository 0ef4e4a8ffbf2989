// Record one task outcome (the raw material of L3 experience cards), once per uid: a session's end
// gate names its outcome after the session, so a close that is run again after a crash does not
// count the same outcome twice. `created` is false when the uid was already there.
OPTIONAL MATCH (old:Outcome {tenant: $tenant, uid: $uid})
CALL (old) {
  WITH old WHERE old IS NULL
  CREATE (o:Outcome {tenant: $tenant, uid: $uid, task: $task, area: $area, steps: $steps, outcome: $outcome,
                     errors: $errors, at: datetime($at), actor: $actor})
  RETURN count(o) AS n
}
RETURN n > 0 AS created
