// graphmem bench graphiti: wait (up to five minutes) until every index is online, so the indexes
// Graphiti has just created are populated before anything is timed.
CALL db.awaitIndexes(300)
