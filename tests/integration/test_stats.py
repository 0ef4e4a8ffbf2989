"""graphmem stats / mem.stats(): per-tenant figures an operator watches."""

from __future__ import annotations

import json
import uuid

from typer.testing import CliRunner

from graphmem import GraphMem


def test_stats_counts_what_happened(store):
    store.add_source("a", kind="document", at="2026-03-01T00:00:00Z", text="A", author="hr")
    store.add_source("b", kind="document", at="2026-03-01T00:00:00Z", text="B", author="fac")
    store.set("kai", "office", "Building A", source="a", recorded_at="2026-03-01T00:00:00Z")
    store.set("kai", "office", "Building B", source="b", recorded_at="2026-03-01T00:00:00Z")
    store.set("deploy", "port", "8000", actor="ops")
    store.set("deploy", "port", "9000", actor="bot", authority="L2", status="candidate")
    open_ = store.working("open-one")
    open_.add("still working on it", id="x")
    w = store.working("t1")
    w.add("I moved to Hewan Rd on Sep 20.", id="u1", role="user", author="lin")
    w.context("where does lin live?", budget_tokens=600)
    w.close("failure", task="deliver", steps=["guess"], wrong_memory=["f1"])
    w2 = store.working("t2")
    w2.add("Please use the hotel.", id="u1", role="user", author="lin")
    w2.close("failure", task="deliver", steps=["guess again"])
    store.playbooks.record_outcome("deliver", ["ask"], "success")
    s = store.stats(since="2000-01-01")
    assert s.writes["set"]["ops"] == 1 and s.writes["set"]["bot"] == 1
    assert s.writes["working"]["owner"] >= 6
    assert s.candidates_waiting == 1
    assert s.conflicts_open == 1
    assert s.working_sessions_open == 1
    assert s.outcomes == 3 and abs(s.task_success_rate - 1 / 3) < 1e-9
    assert s.repeated_failures == {"deliver": 2}
    assert s.sessions_closed == 2 and s.wrong_memory_rate == 0.5
    assert s.contexts == 1 and 0 < s.tokens_per_context <= 600 and s.budget_per_context == 600
    assert "wrong-memory rate: 50.0% of 2 closed sessions" in s.text()


def test_stats_of_an_empty_tenant_says_n_a(store):
    s = store.stats()
    assert s.writes_total == 0 and s.task_success_rate is None and s.tokens_per_context is None
    assert "task success rate: n/a" in s.text()


def test_the_cli_prints_stats_per_tenant(neo4j_target, driver, monkeypatch):
    from graphmem.interfaces.cli import app

    monkeypatch.setenv("NEO4J_URI", neo4j_target.settings.uri)
    if neo4j_target.settings.password is not None:
        monkeypatch.setenv("NEO4J_PASSWORD", neo4j_target.settings.password.get_secret_value())
    names = [f"test-{uuid.uuid4().hex[:10]}" for _ in range(2)]
    mems = [GraphMem(neo4j_target.settings, tenant=n, driver=driver) for n in names]
    try:
        mems[0].set("a", "b", "c")
        runner = CliRunner()
        out = runner.invoke(app, ["stats", "-t", names[0], "-t", names[1], "--since", "2000-01-01"])
        assert out.exit_code == 0, out.output
        assert f"tenant {names[0]}" in out.output and f"tenant {names[1]}" in out.output
        data = json.loads(runner.invoke(app, ["stats", "-t", names[0], "--json"]).output)
        assert data[0]["writes"]["set"]["owner"] == 1
        bad = runner.invoke(app, ["stats", "-t", names[0], "--since", "not a time"])
        assert bad.exit_code == 1 and "Error:" in bad.output
        res = runner.invoke(app, ["working", "add", "s", "hello there", "-t", names[1], "--id", "h", "--json"])
        assert res.exit_code == 0, res.output
        assert json.loads(res.output)["item"]["id"] == "h"
        got = json.loads(runner.invoke(app, ["working", "resume", "s", "-t", names[1], "--json"]).output)
        assert got["status"] == "open" and got["items"][0]["id"] == "h"
    finally:
        for m in mems:
            m.drop_tenant()
