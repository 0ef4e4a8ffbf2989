// Is graphmem's schema (cypher/schema.cypher, this exact version) installed in this database?
// One cheap read instead of re-running every CREATE … IF NOT EXISTS on each client construction.
// The marker is database-wide (schema is not a tenant's data), so this query takes no $tenant.
OPTIONAL MATCH (m:GraphmemSchema {version: $version})
RETURN m IS NOT NULL AS installed
