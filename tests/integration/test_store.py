"""The client against a real Neo4j: writes, refusals, idempotency, routing, and the named queries."""

from __future__ import annotations

import re

import pytest

from graphmem import GraphMem, NotFoundError, TemporalError, ValidationError
from graphmem.store import queries
from graphmem.store.projection.values import instant
from graphmem.store.settings import Settings


def _count_events(store) -> int:
    return len(list(store.events()))


def _snapshot(store, driver):
    records, _, _ = driver.execute_query(
        "MATCH (n) WHERE n.tenant = $t OPTIONAL MATCH (n)-[r]->() RETURN count(DISTINCT n) AS n, count(r) AS r",
        t=store.tenant)
    return records[0]["n"], records[0]["r"]


def test_set_as_of_history_why(store):
    store.add_source("r1", kind="message", at="2026-11-01T10:00:00Z", text="port 8000", author="ops")
    store.set("deploy", "port", "8000", source="r1", recorded_at="2026-11-01T10:00:00Z")
    store.add_source("r7", kind="message", at="2026-11-01T10:30:00Z", text="9000 now", author="ops")
    store.set("deploy", "port", "9000", source="r7", recorded_at="2026-11-01T10:30:00Z")
    assert store.as_of("deploy", "port").value == "9000"
    assert store.as_of("deploy", "port", valid_at="2026-11-01T10:10:00Z").value == "8000"
    assert store.history_values("deploy", "port") == ["8000", "9000"]
    w = store.why("deploy", "port")
    assert (w.source, w.supersedes_source, w.supersedes_value) == ("r7", "r1", "8000")


@pytest.mark.parametrize("event, error", [
    ({"op": "set", "subject": "x", "topic": "p", "value": "2", "recorded_at": "2025-01-01"}, TemporalError),
    ({"op": "set", "subject": "x", "topic": "p"}, ValidationError),
    ({"op": "nope"}, ValidationError),
    ({"op": "retract", "ref": "missing"}, NotFoundError),
    ({"op": "set", "subject": "x", "topic": "p", "value": "2", "source": "nowhere"}, NotFoundError),
    ({"op": "set", "subject": "x", "topic": "p", "value": "3", "valid_to": "2000-01-01"}, TemporalError),
])
def test_refused_events_write_nothing(store, driver, event, error):
    store.set("x", "p", "1", recorded_at="2026-01-02T00:00:00Z")
    before = _snapshot(store, driver)
    with pytest.raises(error):
        store.apply(event)
    assert _snapshot(store, driver) == before
    assert store.as_of("x", "p").value == "1"


def test_retried_write_with_same_id_applies_once(store):
    first = store.set("x", "p", "1", id="req-1", recorded_at="2026-01-01T00:00:00Z")
    again = store.set("x", "p", "1", id="req-1", recorded_at="2026-01-01T00:00:00Z")
    assert again.duplicate and again.seq == first.seq
    assert _count_events(store) == 1


def test_sequence_is_gap_free(store):
    for i in range(5):
        store.set("x", "p", str(i), recorded_at=f"2026-01-0{i + 1}T00:00:00Z")
    assert [e["seq"] for e in store.events()] == [1, 2, 3, 4, 5]


def test_tenants_never_mix(store):
    other = store.for_tenant(store.tenant + "-b")
    try:
        store.set("lin", "home", "Qinghe")
        other.set("lin", "home", "Hewan")
        assert store.as_of("lin", "home").value == "Qinghe"
        assert other.as_of("lin", "home").value == "Hewan"
        assert store.for_tenant(store.tenant + "-c").as_of("lin", "home").value is None
    finally:
        other.drop_tenant()


def test_routing_uri_and_named_database(neo4j_target):
    """neo4j:// (routing) works against the same server; the database name is passed through."""
    s = neo4j_target.settings
    routed = Settings(uri=s.uri.replace("bolt://", "neo4j://"), user=s.user, password=s.password, database="neo4j")
    from graphmem.recall.embed import HashingEmbedder
    with GraphMem(routed, tenant="routing-check", embedder=HashingEmbedder()) as mem:
        try:
            mem.set("a", "b", "c")
            assert mem.as_of("a", "b").value == "c"
            # recall's reads (full-text, vector, SHOW INDEXES) and derived writes (embeddings, summary)
            ctx = mem.context("what is b of a?", subject="a")
            assert [i.value for i in ctx.items] == ["c"] and ctx.summary is not None
        finally:
            mem.drop_tenant()


def test_unknown_database_is_a_clear_error(neo4j_target):
    s = neo4j_target.settings
    from graphmem.core.errors import QueryError
    with pytest.raises(QueryError, match="DatabaseNotFound|not found|does not exist"):
        GraphMem(Settings(uri=s.uri, user=s.user, password=s.password, database="nosuchdb"))


# Queries whose label is nobody's tenant: the database's schema marker, and Graphiti's own nodes in
# the bench's side-by-side run; and the other tenants' names for the CLI's "no events in tenant"
# hint (one LedgerHead a tenant, read on that error only: graphmem.store.hints).
NOT_A_TENANTS = {"admin/schema_mark", "admin/schema_version", "bench/graphiti_as_of", "bench/graphiti_drop",
                 "admin/tenants",
                 # the store's upgrade (graphmem.store.upgrade): every tenant's nodes without a key, once a
                 # schema version, by design a scan of the three labels
                 "admin/unkeyed_tenants", "admin/tenant_keys"}
# Plan operators that read a whole label or a whole index, every tenant's entries with it.
WHOLE_SCANS = ("AllNodesScan", "NodeByLabelScan", "PartitionedNodeByLabelScan", "UnionNodeByLabelsScan",
               "IntersectionNodeByLabelsScan", "SubtractionNodeByLabelsScan", "NodeIndexScan")
_HINT = re.compile(r"USING INDEX (?:SEEK )?(\w+):(\w+)\(([^)]*)\)")


@pytest.fixture(scope="module")
def schema_online(neo4j_target, driver):
    """The schema installed and every index online: without its indexes any query plans a scan."""
    with GraphMem(neo4j_target.settings, tenant="schema-probe", driver=driver) as mem:
        mem.ensure_schema()
    driver.execute_query(queries.get("bench/await_indexes").text, database_=neo4j_target.settings.database)


def _operators(plan) -> list[tuple[str, str]]:
    found = [(plan["operatorType"].split("@")[0], str(plan.get("args", {}).get("Details", "")))]
    for child in plan.get("children", []):
        found += _operators(child)
    return found


@pytest.mark.parametrize("name", [n for n in queries.names() if n != "schema"])
def test_every_named_query_compiles_and_seeks_its_tenant(neo4j_target, driver, schema_online, name):
    """Every named query compiles (one EXPLAIN serves both checks). A tenant's query reaches its
    nodes through a (tenant, …) index seek, never a scan of a whole label or index: with one, a
    small tenant's ``stats`` or ``verify`` costs as much as the largest tenant's data
    (docs/scaling.md, "Many tenants in one database"). ``{tenant: $tenant}`` alone cannot use a
    composite index, so the queries add a key every node has (``x.uid IS NOT NULL``).
    An index a query names in a hint must be the one its plan uses: Neo4j refuses a hint its
    predicates cannot serve, but a hint naming an index that does not exist is only a warning,
    and this driver hears no warnings."""
    q = queries.get(name)
    plan = driver.execute_query("EXPLAIN " + q.text, {p: None for p in q.params},
                                database_=neo4j_target.settings.database).summary.plan
    if name in NOT_A_TENANTS:
        return
    operators = _operators(plan)
    scans = [op for op in operators if op[0] in WHOLE_SCANS]
    assert not scans, f"{name} scans: {scans}"
    for var, label, props in _HINT.findall(q.text):
        wanted = f"{var}:{label}({props.replace(' ', '')})"
        assert any(wanted in details.replace(" ", "") for _, details in operators), f"{name}: hint {wanted} not followed"


def _profile_hits(plan: dict) -> int:
    return int(plan.get("dbHits", 0)) + sum(_profile_hits(c) for c in plan.get("children", []))


@pytest.mark.parametrize("name", ["as_of", "as_of_many"])
def test_as_of_seeks_and_its_expiry_lookup_reads_only_the_slot(store, driver, name):
    """Both reads seek; their expiry lookup, a COLLECT subquery whose plan is not among the
    operators, is checked by what it reads. A thousand facts that can expire, in another tenant,
    make no difference to the read: a scan of the expiry index had read them all on every call
    (docs/scaling.md). The expired value is found, so the lookup did run."""
    from datetime import datetime, timedelta, timezone
    gone = (datetime.now(timezone.utc) - timedelta(days=1)).isoformat()
    other = store.for_tenant(store.tenant + "-x")
    try:
        other.apply_bulk([{"op": "set", "subject": f"p{i}", "topic": "home", "value": "v", "valid_from": "2020-01-01",
                           "expires_at": gone} for i in range(1_000)])
        store.apply_bulk([{"op": "set", "subject": "lin", "topic": "home", "value": "Qinghe",
                           "valid_from": "2020-01-01", "expires_at": gone}])
        q, now = queries.get(name), datetime.now(timezone.utc)
        times = {"valid_at": instant(now), "known_at": instant(now)}
        params = ({"subject": "lin", "topic": "home", "env": ""} if name == "as_of"
                  else {"slots": [{"subject": "lin", "topic": "home", "env": ""}]})
        records, summary, _ = driver.execute_query("PROFILE " + q.text, tenant=store.tenant, **params, **times)
        plan = str(summary.profile)
        assert "NodeUniqueIndexSeek" in plan
        assert not any(scan in plan for scan in ("NodeByLabelScan", "AllNodesScan", "NodeIndexScan"))
        assert [x["value"] for x in records[0]["expired"]] == ["Qinghe"]
        assert _profile_hits(summary.profile) < 100
    finally:
        other.drop_tenant()


INJECTIONS = ["x'}) DETACH DELETE n //", "\" OR 1=1 --", "'); MATCH (n) DETACH DELETE n; //",
              "$tenant", "{tenant: 'other'}", "`Fact`", "MATCH (n) RETURN n", "\\u0027 CALL apoc.help('')"]


@pytest.mark.parametrize("text", INJECTIONS)
def test_cypher_injection_is_stored_as_data(store, driver, text):
    """Values only ever reach Cypher as parameters: hostile text is stored verbatim and runs nothing."""
    store.set("victim", "note", "safe", recorded_at="2026-01-01T00:00:00Z")
    count = "MATCH (f:Fact {tenant: $t}) WHERE f.uid IS NOT NULL RETURN count(f) AS c"
    before = driver.execute_query(count, t=store.tenant).records[0]["c"]
    store.add_source("src-x", kind="message", at="2026-01-02", text=text, author="attacker")
    store.set("victim", "comment", text, source="src-x", recorded_at="2026-01-02T00:00:00Z", actor="attacker")
    assert store.as_of("victim", "comment").value == text
    assert store.as_of("victim", "note").value == "safe"
    after = driver.execute_query(count, t=store.tenant).records[0]["c"]
    assert after == before + 1  # one new fact; nothing deleted, nothing else run


def test_sendable_parameters_reach_neo4j_unchanged(driver):
    """queries.sendable's lists print as their length (the driver's debug text), and Neo4j receives
    what a plain list would give it: lists of maps, of floats, nested and empty."""
    params = {"rows": [{"uid": "f1", "vector": [0.1, -2.5e-7, 3.0], "tags": ["a", "b"]}, {"uid": "f2"}],
              "empty": [], "nested": [[1, 2], [], ["x"]], "tenant": "t", "n": 3}
    sent = queries.sendable(params)
    assert repr(sent["rows"]) == "<list of 2>" and "f1" not in repr(sent)
    assert sent == params
    got = driver.execute_query("RETURN $rows AS rows, $empty AS empty, $nested AS nested, $tenant AS tenant, "
                               "$n AS n", sent).records[0].data()
    assert got == params == driver.execute_query("RETURN $rows AS rows, $empty AS empty, $nested AS nested, "
                                                 "$tenant AS tenant, $n AS n", params).records[0].data()
