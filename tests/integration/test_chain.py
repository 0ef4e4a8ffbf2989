"""The tamper-evident ledger: every event is hash-chained; verify() finds the first edited,
removed or reordered entry, survives an erase, and checks the projection against a replay;
playbook transitions are ledger events too."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_playbooks import _promotable

EXE = str(Path(sys.executable).parent / "graphmem")


def _story(store):
    store.add_source("m1", kind="message", at="2026-01-01", text="lin: I live on Hewan Rd", author="lin")
    store.set("lin", "home_address", "Hewan Rd", source="m1", recorded_at="2026-01-01T00:00:00Z")
    store.set("deploy", "port", "8000", recorded_at="2026-01-02T00:00:00Z", reason="first deploy")
    store.set("deploy", "port", "9000", recorded_at="2026-01-03T00:00:00Z")


def test_an_intact_ledger_verifies_and_an_erase_keeps_it_verifiable(store):
    _story(store)
    report = store.verify()
    assert report["ok"] and report["events"] == 4 and report["head_hash"]
    store.erase(subject="lin", reason="gdpr")
    after = store.verify()
    assert after["ok"] and after["events"] == 5, after


def test_a_hand_edited_event_is_found(store, driver):
    _story(store)
    driver.execute_query("MATCH (v:Event {tenant: $t, seq: 3}) SET v.payload = replace(v.payload, '8000', '6666')",
                         t=store.tenant)
    report = store.verify(replay=False)
    assert not report["ok"] and report["first_break"] == {"seq": 3, "problem": "content does not match its digest (edited)"}
    r = subprocess.run([EXE, "verify", "-t", store.tenant, "--no-replay"], capture_output=True, text=True,
                       timeout=120, env=_env(store))
    assert r.returncode == 1 and "BROKEN at seq 3" in r.stdout, r.stdout + r.stderr


def test_a_removed_event_and_a_rewritten_reason_are_found(store, driver):
    _story(store)
    driver.execute_query("MATCH (v:Event {tenant: $t, seq: 3}) SET v.reason = 'nothing to see'", t=store.tenant)
    assert store.verify(replay=False)["first_break"]["seq"] == 3
    driver.execute_query("MATCH (v:Event {tenant: $t, seq: 4}) DETACH DELETE v", t=store.tenant)
    driver.execute_query("MATCH (v:Event {tenant: $t, seq: 3}) SET v.reason = 'first deploy'", t=store.tenant)
    assert store.verify(replay=False)["first_break"]["problem"].startswith("the ledger head's hash")


def test_a_tampered_projection_differs_from_the_replay_and_is_rebuilt(store, driver):
    _story(store)
    driver.execute_query("MATCH (f:Fact {tenant: $t, value: '9000'}) SET f.value = '6666'", t=store.tenant)
    assert store.as_of("deploy", "port").value == "6666"
    report = store.verify()
    assert report["chain_ok"] and report["projection_ok"] is False and not report["ok"]
    assert store.as_of("deploy", "port").value == "9000"


def test_playbook_transitions_are_ledger_events(store):
    pb, card, req = _promotable(store)
    v = pb.workflow("deploy-db")["versions"][0]
    pb.approve("deploy-db", v["uid"], approver="alice", version_hash=v["content_hash"])
    pb.feedback("deploy-db", success=True)
    actions = [(e["payload"]["action"], e["actor"]) for e in store.audit() if e["op"] == "playbook"]
    assert ("draft", "owner") in actions and ("request", "owner") in actions
    assert ("approve", "alice") in actions and ("feedback", "owner") in actions
    assert store.verify()["ok"]


def test_every_eval_suite_tenant_verifies(store, eval_dir):
    """Load every scenario of every shared suite as the eval does (one tenant per scenario tenant)
    and verify each tenant's chain and projection."""
    from graphmem.core.errors import GraphMemError

    tenants: set[str] = set()
    try:
        for path in sorted(eval_dir.glob("*.json")):
            for sc in json.loads(path.read_text()):
                def mem(name: str | None, sc=sc):
                    real = f"{store.tenant}-{sc['id']}-{name or sc.get('tenant', 'default')}"
                    tenants.add(real)
                    return store.for_tenant(real)
                for name, spec in (sc.get("topics") or {}).items():
                    mem(None).declare_topic(name, spec.get("cardinality", "one"))
                for e in sc["events"]:
                    e = dict(e)
                    target, expect_error = mem(e.pop("tenant", None)), e.pop("expect_error", False)
                    try:
                        target.apply(e)
                    except GraphMemError:
                        assert expect_error, (sc["id"], e)
        broken = {t: r for t in sorted(tenants) if not (r := store.for_tenant(t).verify())["ok"]}
        assert not broken, broken
    finally:
        for t in tenants:
            store.for_tenant(t).drop_tenant()


def _env(store) -> dict[str, str]:
    import os
    env = dict(os.environ, NEO4J_URI=store.settings.uri)
    if store.settings.password is not None:
        env["NEO4J_PASSWORD"] = store.settings.password.get_secret_value()
    return env
