// Count a use of the current version and whether it succeeded; flag a regression when its failure
// rate (after at least $min_uses uses) exceeds the rate of the version it replaced.
MATCH (w:Workflow {tenant: $tenant, name: $name})-[:VERSION]->(v:WorkflowVersion {uid: w.current_version})
SET v.used = v.used + 1,
    v.succeeded = v.succeeded + CASE WHEN $success THEN 1 ELSE 0 END,
    v.failed = v.failed + CASE WHEN $success THEN 0 ELSE 1 END
WITH w, v
OPTIONAL MATCH (w)-[:VERSION]->(old:WorkflowVersion {uid: v.released_from})
WITH v, CASE WHEN old IS NULL OR old.used = 0 THEN 0.0 ELSE toFloat(old.failed) / old.used END AS old_rate
SET v.regression = v.used >= $min_uses AND toFloat(v.failed) / v.used > old_rate
RETURN v.uid AS uid, v.used AS used, v.failed AS failed, v.regression AS regression, old_rate
