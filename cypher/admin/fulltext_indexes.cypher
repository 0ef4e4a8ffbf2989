// admin/fulltext_indexes: the database's full-text indexes as defined now (labels, properties, analyzer), for
// graphmem.store.upgrade to find one whose definition differs from cypher/schema.cypher's (an index made before
// `tenant_key` existed) and recreate it. Database-wide: schema is not a tenant's data.
SHOW FULLTEXT INDEXES YIELD name, labelsOrTypes, properties, options
RETURN name, labelsOrTypes AS labels, properties, options.indexConfig['fulltext.analyzer'] AS analyzer
