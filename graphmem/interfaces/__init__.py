"""The interfaces layer: the CLI, the MCP server, the OGM classes and the importer, thin over the client; may import any layer."""
