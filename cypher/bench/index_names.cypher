// graphmem bench graphiti: the names of the database's indexes, so the bench can drop
// exactly those Graphiti created during the run and leave the database's schema as it found it.
SHOW INDEXES YIELD name
RETURN name
