// graphmem bench graphiti: remove up to $batch of the nodes the run saved through Graphiti (one group
// id) with their edges; the bench repeats it until it deletes nothing. Not used by the store itself.
MATCH (n {group_id: $group})
WHERE n:Entity OR n:Episodic
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
