// recall/vector_index_info: the recall vector indexes and their dimensions, if they exist. The
// tenant parameter is unused (indexes are per database) but every query of graphmem takes one.
SHOW INDEXES YIELD name, options, state
WHERE name IN ['fact_embedding', 'source_embedding'] AND $tenant IS NOT NULL
RETURN name, options.indexConfig.`vector.dimensions` AS dimensions, state
