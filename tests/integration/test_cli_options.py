"""Options the CLI gained to mirror the client's keywords (tests/unit/test_option_mirror.py checks
the names), run as a subprocess against Neo4j: each option reaches its keyword — session and
include_candidates on why/history/path, source and id on confirm, the ingest's drawn_as, kind,
reason and record time, context's summary/gaps switches, working context's keywords."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

EXE = str(Path(sys.executable).parent / "graphmem")


def _ok(neo4j_target, *args: str) -> str:
    env = dict(os.environ, NEO4J_URI=neo4j_target.settings.uri)
    if neo4j_target.settings.password is not None:
        env["NEO4J_PASSWORD"] = neo4j_target.settings.password.get_secret_value()
    if neo4j_target.settings.database:
        env["NEO4J_DATABASE"] = neo4j_target.settings.database
    out = subprocess.run([EXE, *args], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, (args, out.stderr)
    return out.stdout


def _payload(event: dict) -> dict:
    p = event["payload"]
    return json.loads(p) if isinstance(p, str) else p


def test_reads_take_session_and_include_candidates(store, neo4j_target):
    t = store.tenant
    store.set("deploy", "port", "9090", authority="L0", session="s1")  # a task-scoped fact: only its session sees it
    history = json.loads(_ok(neo4j_target, "history", "deploy", "port", "--session", "s1", "-t", t, "--json"))
    assert [e["value"] for e in history] == ["9090"]
    assert json.loads(_ok(neo4j_target, "history-values", "deploy", "port", "--session", "s1", "-t", t,
                          "--json")) == ["9090"]
    assert json.loads(_ok(neo4j_target, "why", "deploy", "port", "--session", "s1", "-t", t, "--json"))["value"] \
        == "9090"
    store.set("lin", "home_city", "Berlin", status="candidate", ref="g1")
    store.set("apollo", "managed_by", object="lin")
    hop = ("path", "apollo", "managed_by", "home_city", "-t", t, "--json")
    assert json.loads(_ok(neo4j_target, *hop)).get("value") is None  # a candidate does not answer ...
    assert json.loads(_ok(neo4j_target, *hop, "--include-candidates"))["value"] == "Berlin"  # ... unless asked
    assert json.loads(_ok(neo4j_target, "why", "lin", "home_city", "--include-candidates", "-t", t,
                          "--json"))["value"] == "Berlin"


def test_confirm_takes_source_and_id(store, neo4j_target):
    t = store.tenant
    store.add_source("m1", kind="message", at="2026-11-01T10:00:00Z", text="yes, B2", author="lin")
    store.set("lin", "office", "B2", status="candidate", ref="guess-1")
    _ok(neo4j_target, "confirm", "guess-1", "--source", "m1", "--id", "c-1", "-t", t)
    _ok(neo4j_target, "confirm", "guess-1", "--source", "m1", "--id", "c-1", "-t", t)  # a retry applies once
    confirms = [e for e in store.events() if e["op"] == "confirm"]
    assert len(confirms) == 1 and _payload(confirms[0])["source"] == "m1"
    assert store.as_of("lin", "office").value == "B2"


def test_ingest_takes_drawn_as_kind_reason_and_record_time(store, neo4j_target):
    t = store.tenant
    out = json.loads(_ok(neo4j_target, "ingest", "I moved to Berlin in May 2026.", "--speaker", "lin", "--id", "m2",
                         "--at", "2026-06-01T10:00:00Z", "--kind", "email", "--drawn-as", "inferred",
                         "--reason", "mailbox import", "--recorded-at", "2026-06-02T00:00:00Z", "-t", t, "--json"))
    event = next(e for e in store.events() if e["seq"] == out["seq"])
    payload = _payload(event)
    assert payload["kind"] == "email" and payload["drawn_as"] == "inferred" and payload["reason"] == "mailbox import"
    assert str(event["recorded_at"]).startswith("2026-06-02")
    assert all(d.get("authority") != "L1" for d in out["drawn"])  # inferred words never give a stated fact


def test_context_switches_reach_the_client(store, neo4j_target):
    t = store.tenant
    store.set("lin", "office", "B2")
    ask = ("context", "where is lin's office?", "--subject", "lin", "-t", t, "--json")
    assert json.loads(_ok(neo4j_target, *ask))["summary"] is not None
    assert json.loads(_ok(neo4j_target, *ask, "--no-summary", "--no-gaps", "--stale-after-days", "30")).get(
        "summary") is None


def test_working_context_takes_the_context_keywords(store, neo4j_target):
    t = store.tenant
    store.set("lin", "office", "B2", status="candidate")
    _ok(neo4j_target, "working", "add", "s1", "find lin's office", "-t", t)
    ask = ("working", "context", "s1", "where is lin's office?", "--subject", "lin", "-t", t, "--json")
    assert "B2" not in [i.get("value") for i in json.loads(_ok(neo4j_target, *ask))["items"]]
    assert "B2" in [i.get("value") for i in json.loads(_ok(neo4j_target, *ask, "--include-candidates"))["items"]]
