// recall/vector_index_info: the fact_embedding index and its dimension, if it exists. The tenant
// parameter is unused (indexes are per database) but every query of graphmem takes one.
SHOW INDEXES YIELD name, options, state
WHERE name = 'fact_embedding' AND $tenant IS NOT NULL
RETURN options.indexConfig.`vector.dimensions` AS dimensions, state
