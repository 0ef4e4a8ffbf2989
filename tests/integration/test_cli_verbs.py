"""The CLI's mirror verbs, run as a subprocess against Neo4j: set, revoke, retract, confirm, reject,
quote, add-source, declare-topic/topic, alias, events, assertions, history-values, the erase
requests, drop-tenant, playbook record-outcome (and its old name), --budget-tokens (and --budget),
ping, round-trip. Bad input: one ``Error:`` line, exit 1, nothing written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

EXE = str(Path(sys.executable).parent / "graphmem")


def _run(neo4j_target, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NEO4J_URI=neo4j_target.settings.uri)
    if neo4j_target.settings.password is not None:
        env["NEO4J_PASSWORD"] = neo4j_target.settings.password.get_secret_value()
    if neo4j_target.settings.database:
        env["NEO4J_DATABASE"] = neo4j_target.settings.database
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=env, timeout=120)


def _ok(neo4j_target, *args: str) -> str:
    out = _run(neo4j_target, *args)
    assert out.returncode == 0, (args, out.stderr)
    return out.stdout


def _refused(neo4j_target, *args: str) -> str:
    out = _run(neo4j_target, *args)
    assert out.returncode == 1, (args, out.stdout)
    assert out.stderr.startswith("Error: ") and len(out.stderr.strip().splitlines()) == 1, out.stderr
    return out.stderr


def test_fact_verbs_write_what_the_client_would(store, neo4j_target):
    t = store.tenant
    _ok(neo4j_target, "add-source", "m1", "--kind", "message", "--at", "2026-11-01T10:30:00Z", "--text",
        "port is 8080", "--author", "ops", "-t", t)
    res = json.loads(_ok(neo4j_target, "set", "deploy", "port", "8080", "--valid-from", "2026-11-01T10:30:00Z",
                         "--source", "m1", "--actor", "ops", "-t", t, "--json"))
    assert res["op"] == "set" and res["seq"] >= 2
    assert store.as_of("deploy", "port").value == "8080"
    assert store.why("deploy", "port").source == "m1"
    assert [e["actor"] for e in store.events()][-1] == "ops"
    _ok(neo4j_target, "revoke", "deploy", "port", "--effective", "2026-11-02T00:00:00Z", "--reason", "retired",
        "-t", t)
    assert store.as_of("deploy", "port", valid_at="2026-11-03").value is None
    assert store.as_of("deploy", "port", valid_at="2026-11-01T12:00:00Z").value == "8080"
    assert json.loads(_ok(neo4j_target, "history-values", "deploy", "port", "-t", t, "--json")) == ["8080"]


def test_candidates_refs_and_topics(store, neo4j_target):
    t = store.tenant
    _ok(neo4j_target, "set", "lin", "office", "B2", "--status", "candidate", "--ref", "guess-1", "-t", t)
    assert store.as_of("lin", "office").value is None  # a candidate does not answer
    _ok(neo4j_target, "confirm", "guess-1", "-t", t)
    assert store.as_of("lin", "office").value == "B2"
    _ok(neo4j_target, "set", "lin", "desk", "D1", "--status", "candidate", "--ref", "guess-2", "-t", t)
    _ok(neo4j_target, "reject", "guess-2", "--reason", "not true", "-t", t)
    assert store.as_of("lin", "desk", include_candidates=True).value is None
    _ok(neo4j_target, "set", "lin", "badge", "7", "--ref", "b-1", "-t", t)
    _ok(neo4j_target, "retract", "b-1", "-t", t)
    assert store.as_of("lin", "badge").value is None
    rows = json.loads(_ok(neo4j_target, "assertions", "lin", "badge", "-t", t, "--json"))
    assert len(rows) == 1 and rows[0]["value"] == "7"
    _ok(neo4j_target, "declare-topic", "skills", "--cardinality", "many", "-t", t)
    _ok(neo4j_target, "topic", "tags", "--cardinality", "many", "-t", t)  # the old name
    ops = [e["op"] for e in store.events()]
    assert ops.count("topic") == 2 and ops.count("confirm") == 1 and ops.count("reject") == 1
    _ok(neo4j_target, "alias", "Melanie", "Mel", "-t", t)
    last = store.events_page(after=0, limit=1000)[-1]
    assert last["op"] == "set" and '"Mel"' in str(last["payload"])


def test_quote_events_and_paging(store, neo4j_target):
    t = store.tenant
    _ok(neo4j_target, "add-source", "doc-2019", "--kind", "document", "--at", "2019-03-01T00:00:00Z", "-t", t)
    _ok(neo4j_target, "add-source", "mail-7", "--kind", "email", "--at", "2026-11-01T00:00:00Z", "-t", t)
    claims = json.dumps([{"subject": "lin", "topic": "office", "value": "A1"}])
    _ok(neo4j_target, "quote", "mail-7", "doc-2019", "--claims", claims, "-t", t)
    lines = [json.loads(x) for x in _ok(neo4j_target, "events", "-t", t).splitlines()]
    assert [e["op"] for e in lines] == ["source", "source", "quote"]
    page = [json.loads(x) for x in _ok(neo4j_target, "events", "--after", str(lines[0]["seq"]), "--limit", "1",
                                       "-t", t).splitlines()]
    assert [e["seq"] for e in page] == [lines[1]["seq"]]


def test_bad_input_is_refused_and_writes_nothing(store, neo4j_target):
    t = store.tenant
    store.set("deploy", "port", "8080")
    before = len(list(store.events()))
    assert "exactly one of 'value'" in _refused(neo4j_target, "set", "deploy", "port", "-t", t)
    _refused(neo4j_target, "confirm", "-t", t)  # neither REF nor --fact
    _refused(neo4j_target, "confirm", "no-such-ref", "-t", t)
    _refused(neo4j_target, "quote", "a", "b", "--claims", "not json", "-t", t)
    _refused(neo4j_target, "add-source", "m9", "--kind", "fax", "--at", "2026-01-01", "-t", t)
    assert "--yes" in _refused(neo4j_target, "drop-tenant", "-t", t)
    assert len(list(store.events())) == before
    _ok(neo4j_target, "drop-tenant", "--yes", "-t", t)
    assert list(store.events()) == []


def test_erase_requests(store, neo4j_target):
    t = store.tenant
    store.set("lin", "home_address", "河湾路")
    req = json.loads(_ok(neo4j_target, "request-erase", "--subject", "lin", "--actor", "agent", "--reason",
                         "user asked", "-t", t, "--json"))
    shown = json.loads(_ok(neo4j_target, "erase-request", req["request"], "-t", t, "--json"))
    assert shown["subject"] == "lin" and shown["asked_by"] == "agent"
    assert store.as_of("lin", "home_address").value is None  # held back at once
    cancelled = json.loads(_ok(neo4j_target, "cancel-erase", req["request"], "--actor", "lin", "-t", t, "--json"))
    assert cancelled["status"] == "cancelled"
    assert store.as_of("lin", "home_address").value == "河湾路"
    req2 = json.loads(_ok(neo4j_target, "request-erase", "--subject", "lin", "--actor", "agent", "-t", t, "--json"))
    done = json.loads(_ok(neo4j_target, "confirm-erase", req2["request"], "--actor", "lin", "-t", t, "--json"))
    assert done["confirmed_by"] == "lin"
    assert "河湾路" not in json.dumps(list(store.events()), ensure_ascii=False, default=str)
    assert store.as_of("lin", "home_address").value is None


def test_playbook_names_budget_tokens_and_connection_verbs(store, neo4j_target):
    t = store.tenant
    args = ["deploy-db", "--step", "run migrations", "--outcome", "failure", "--error", "boom", "-t", t]
    _ok(neo4j_target, "playbook", "record-outcome", *args)
    drafted = json.loads(_ok(neo4j_target, "playbook", "draft", "deploy-db", "--step", "back up",
                             "--step", "run migrations", "--outcome", "success", "-t", t, "--json"))
    assert drafted.get("card") or drafted.get("uid"), drafted
    cards = json.loads(_ok(neo4j_target, "playbook", "cards", "-t", t, "--json"))
    assert len(cards) == 1
    store.set("lin", "home_address", "河湾路")
    new = json.loads(_ok(neo4j_target, "context", "lin?", "--subject", "lin", "--budget-tokens", "900", "-t", t,
                         "--json"))
    old = json.loads(_ok(neo4j_target, "context", "lin?", "--subject", "lin", "--budget", "900", "-t", t, "--json"))
    assert new["budget_tokens"] == old["budget_tokens"] == 900
    assert "Neo4j" in _ok(neo4j_target, "ping")
    assert json.loads(_ok(neo4j_target, "round-trip", "--runs", "3", "--json"))["runs"] == 3


def test_bench_cli_reports_the_wall_time_of_a_read(neo4j_target, driver):
    """`graphmem bench cli` (a benchmark, not a timed test): it runs, and says what it measured."""
    t = f"bench-cli-{os.getpid()}"
    try:
        out = json.loads(_ok(neo4j_target, "bench", "cli", "--runs", "2", "-t", t, "--breakdown", "--json"))
        assert out["command"] == f"graphmem as-of deploy port -t {t}" and out["runs"] == 2
        assert len(out["wall_s"]) == 2 and out["median_s"] > 0 and out["cpu_s_per_run"] > 0
        parts = out["breakdown_s"]  # one more run's wall, split: the parts add up to it
        assert {"interpreter start", "import neo4j", "import graphmem", "import typer", "exit"} <= set(parts)
        assert abs(sum(v for k, v in parts.items() if k != "wall") - parts["wall"]) < 0.001 * len(parts)
    finally:
        from graphmem import GraphMem
        GraphMem(neo4j_target.settings, tenant=t, driver=driver).drop_tenant()


def test_working_commands_take_the_clients_policy_and_area_and_refuse_unknown_sessions(store, neo4j_target, driver):
    """``graphmem working add`` takes every knob of the working policy (as ``mem.working(s, …)``
    does), ``close`` the playbook area; an unknown or closed session is a typed one-line error."""
    t = store.tenant
    before = len(list(store.events()))
    err = _refused(neo4j_target, "working", "add", "s1", "hi", "--budget-tokens", "60", "-t", t)
    assert "bad working-memory policy: budget_tokens" in err
    assert len(list(store.events())) == before  # refused: nothing written
    added = json.loads(_ok(neo4j_target, "working", "add", "s1", "a turn of some length", "--budget-tokens", "100",
                           "--warn-ratio", "0.3", "--keep-recent", "1", "--summary-ratio", "0.5", "-t", t, "--json"))
    assert added["budget_tokens"] == 100
    assert store.working("s1").items()[0].text == "a turn of some length"
    opened = json.loads(next(e for e in store.events() if e["op"] == "working")["payload"])
    assert opened["detail"]["policy"] == {"budget_tokens": 100, "keep_recent": 1, "strategy": "compress",
                                          "summary_ratio": 0.5, "warn_ratio": 0.3}
    assert "no working session 'nope'" in _refused(neo4j_target, "working", "context", "nope", "a task", "-t", t)
    _ok(neo4j_target, "working", "close", "s1", "--outcome", "success", "--task", "deploy", "--area", "release",
        "-t", t)
    areas = driver.execute_query("MATCH (o:Outcome {tenant: $t}) RETURN o.area AS a", t=t).records
    assert [r["a"] for r in areas] == ["release"]
    assert "is closed" in _refused(neo4j_target, "working", "context", "s1", "a task", "-t", t)
