// stats: task outcomes recorded since $since (playbooks' raw material), per task.
MATCH (o:Outcome {tenant: $tenant})
WHERE o.at >= datetime($since)
RETURN o.task AS task, sum(CASE o.outcome WHEN 'success' THEN 1 ELSE 0 END) AS successes,
       sum(CASE o.outcome WHEN 'success' THEN 0 ELSE 1 END) AS failures
ORDER BY task
