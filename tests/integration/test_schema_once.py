"""The schema is installed once per database, not on every client: a client made on a database
that carries the schema's version marker runs one read and no schema statement (issue: every
CLI call used to run schema.cypher's statements)."""

from __future__ import annotations

from graphmem import GraphMem
from graphmem.store import queries


class Counting(GraphMem):
    """A client that records the kind of every step it runs."""

    steps: list[str] = []

    def _step(self, step):
        Counting.steps.append(type(step).__name__)
        return super()._step(step)


def test_a_new_client_on_a_marked_database_runs_one_read(neo4j_target, driver):
    with GraphMem(neo4j_target.settings, install_schema=False) as mem:
        mem.install_schema()  # statements, then the marker
        assert mem.ensure_schema() is False
    records, _, _ = driver.execute_query("MATCH (m:GraphmemSchema {version: $v}) RETURN count(m) AS n",
                                         v=queries.schema_version())
    assert records[0]["n"] == 1
    Counting.steps = []
    with Counting(neo4j_target.settings):  # its own driver: nothing cached in this process for it
        pass
    assert Counting.steps == ["Call"], Counting.steps


def test_clients_sharing_a_driver_check_once(neo4j_target):
    import neo4j
    s = neo4j_target.settings
    d = neo4j.GraphDatabase.driver(s.uri, auth=s.auth, notifications_min_severity="OFF")
    try:
        Counting.steps = []
        for tenant in ("a", "b", "c"):
            Counting(s, tenant=f"schema-once-{tenant}", driver=d)
        assert Counting.steps == ["Call"], Counting.steps
        from graphmem.store.client import _WARMING
        assert d not in _WARMING  # a borrowed driver is not warmed: its owner closes it at once, below
    finally:
        d.close()


def test_a_changed_schema_installs_again(neo4j_target, monkeypatch):
    """A schema.cypher with other statements has another version: the marker does not match, so
    the statements run (idempotent) and the new version is marked."""
    monkeypatch.setattr(queries, "schema_version", lambda: "test-version-not-installed")
    with GraphMem(neo4j_target.settings, install_schema=False) as mem:
        try:
            assert mem.ensure_schema() is True
            assert mem.ensure_schema() is False
        finally:
            mem._driver.execute_query("MATCH (m:GraphmemSchema {version: 'test-version-not-installed'}) DELETE m")
