"""Every .cypher file is in the registry, used by the code, and scoped by tenant."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphmem.store import queries
from graphmem.core.errors import QueryError

PKG = Path(__file__).resolve().parents[2] / "graphmem"


def _names_used_in_code() -> set[str]:
    used: set[str] = set()
    pattern = re.compile(r"""(?:Call\(|query\(|query_call\(|Batch\(|_write\(|write_query\(|_q\(|_drop\(|queries\.get\()\s*"([a-z_/]+)\"""")
    for path in PKG.rglob("*.py"):
        used.update(pattern.findall(path.read_text()))
    return used


def test_every_file_is_loaded_and_every_name_used_exists():
    names = set(queries.names())
    assert {"as_of", "history", "why", "path", "schema"} <= names
    used = _names_used_in_code()
    assert used - names == set(), "code names a query that has no file"
    analyst_only = {n for n in names if n.startswith("browser/")}  # the Browser kit, for people
    assert names - used - analyst_only - {"schema"} == set(), "a .cypher file nothing uses"


@pytest.mark.parametrize("name", queries.names())
def test_every_query_is_scoped_by_tenant(name):
    # Schema statements act on the database, not on a tenant's data.
    if name in ("schema", "recall/vector_index_facts", "recall/vector_index_sources", "recall/vector_index_info",
                "admin/schema_version", "admin/schema_mark", "admin/round_trip", "bench/await_indexes",
                "bench/index_names", "bench/database_name", "bench/drop_index", "admin/fulltext_indexes",
                "admin/drop_index", "admin/await_index", "bench/clear_query_caches"):
        return
    if name in ("admin/unkeyed_tenants", "admin/tenant_keys"):  # the store's upgrade (graphmem.store.upgrade):
        # every tenant's nodes get their own tenant's key, read from the node itself
        body = queries.get(name).text
        assert "n.tenant_key IS NULL" in body and ("RETURN DISTINCT n.tenant AS name" in body
                                                   or "SET n.tenant_key = $keys[n.tenant]" in body)
        return
    if name == "admin/tenants":  # other tenants' names (never contents) for the CLI's hint: graphmem.store.hints
        body = queries.get(name).text
        assert "h.tenant <> $tenant" in body and "RETURN h.tenant AS tenant\n" in body
        return
    body = "\n".join(l for l in queries.get(name).text.splitlines() if not l.lstrip().startswith("//"))
    if name.startswith("bench/graphiti_"):  # Graphiti's graph (graphmem bench graphiti): scoped by its group id
        assert "group_id: $group" in body, f"{name} does not constrain by group"
        return
    assert "tenant: $tenant" in body or re.search(r"\w\.tenant = \$tenant", body), \
        f"{name} does not constrain by tenant"


def test_parameters_must_match_the_file():
    q = queries.get("as_of")
    assert q.params == {"tenant", "subject", "topic", "env", "valid_at", "known_at"}
    with pytest.raises(QueryError, match="missing"):
        q.check({"tenant": "t"})


def test_schema_statements_split():
    stmts = queries.schema_statements()
    assert all(s.startswith("CREATE") for s in stmts) and len(stmts) >= 6


def test_row_is_record_data_without_walking_plain_values():
    from neo4j import Record
    from neo4j.graph import Graph, Node
    from neo4j.time import Date, DateTime, Duration

    node = Node(Graph(), "4:x:1", 1, ["Fact"], {"uid": "f1"})
    for values in ({"a": 1, "b": "x", "c": None, "d": 1.5, "e": True},
                   {"a": [1, {"k": node}], "b": {"n": node}, "c": node, "d": "plain"},
                   {"near": [{"side": -1, "text": "hi", "v": None}, {"xs": [1, 2.5, [True]]}], "e": []},
                   {"t": DateTime(2023, 5, 8, 13, 56), "ts": [Date(2023, 5, 8)], "m": {"t": Duration(days=1)}}):
        record = Record(values)
        assert queries.row(record) == record.data()


def test_row_raises_for_a_value_the_driver_could_not_hydrate():
    """row() reads the record as a tuple; a value the driver failed to build still raises the
    driver's own error, as record.data() does."""
    from neo4j import Record
    from neo4j._codec.hydration import BrokenHydrationObject
    from neo4j.exceptions import BrokenRecordError

    record = Record({"ok": "x", "bad": BrokenHydrationObject(ValueError("year 0 is out of range"), None)})
    with pytest.raises(BrokenRecordError):
        record.data()
    with pytest.raises(BrokenRecordError):
        queries.row(record)


def test_schema_version_follows_the_statements():
    v = queries.schema_version()
    assert len(v) == 16 and v == queries.schema_version()
    assert queries.get("admin/schema_version").params == {"version"}


def test_the_files_are_read_once_per_process():
    """A context() runs several named queries: reading ~80 files for each of them tripled its time
    once (a decorator that slid onto the wrong function). The registry is built once."""
    assert queries.get("as_of") is queries.get("as_of")
    assert queries._registry() is queries._registry()


@pytest.mark.parametrize("name", queries.names())
def test_the_text_sent_is_the_file_named_without_its_comment_lines(name):
    """The server handles every character it is sent: whole-line comments stay in the file (for
    people and the Browser) and are not sent; one first line names the file, for whoever reads
    SHOW TRANSACTIONS or the query log. Nothing else changes — the other lines, their order and
    the parameters are the file's."""
    q = queries.get(name)
    assert q.source == (queries.cypher_dir() / f"{name}.cypher").read_text(encoding="utf-8")
    kept = [line for line in q.source.splitlines() if not line.lstrip().startswith("//")]
    assert q.text.splitlines() == [f"// cypher/{name}.cypher"] + kept
    assert q.params == set(re.findall(r"\$([A-Za-z_][A-Za-z0-9_]*)", q.text))
