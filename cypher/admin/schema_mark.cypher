// Record that schema.cypher at this version is installed (written after its statements ran).
// Database-wide: one marker per schema version, never a tenant's data.
MERGE (m:GraphmemSchema {version: $version})
ON CREATE SET m.installed_at = datetime()
RETURN m.version AS version
