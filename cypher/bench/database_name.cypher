// graphmem bench graphiti: the name of the database this session runs in (the server's default when
// none is named), so Graphiti's own driver is pointed at the same one.
CALL db.info() YIELD name
RETURN name
