"""The local layer: the local Neo4j server, the test fixtures that find a Neo4j, the demo; imports core, store and local only."""
