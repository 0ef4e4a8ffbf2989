// admin/drop_index: drop one of graphmem's full-text indexes whose definition changed (graphmem.store.upgrade);
// schema.cypher's statement then creates it as defined now. Database-wide: schema is not a tenant's data.
// Browser:  :param name => 'memory_text'
DROP INDEX $name IF EXISTS
