// graphmem bench graphiti: drop one index Graphiti created during the run (by name; Neo4j 5.16+ takes
// the name as a parameter), so the database's schema is left as the bench found it.
DROP INDEX $name IF EXISTS
