"""Playbooks: cards drafted from outcomes, promotion only with the owner's approval, rollback,
feedback and regression, L4 over L3, and every other path to publishing refused."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem import NotFoundError, ValidationError
from graphmem.store import queries

EXE = str(Path(sys.executable).parent / "graphmem")
RULES = ["must: run migrations", "must: restart service", "never: edit prod config by hand", "output: report"]


def _promotable(store):
    pb = store.playbooks
    assert pb.record_outcome("deploy-db", ["edit prod config by hand", "restart service"], "failure",
                             ["E1045 access denied"]) is None
    card = pb.record_outcome("deploy-db", ["run migrations", "restart service"], "success")
    req = pb.request_promotion(card["uid"], workflow="deploy-db", owner="alice", text="Run migrations, restart.",
                               scenario="deploy-db", inputs=["release"], outputs=["report"],
                               tool_permissions=["shell", "db.migrate"], validation_rules=RULES)
    return pb, card, req


def test_failure_then_success_drafts_a_card(store):
    pb = store.playbooks
    pb.record_outcome("deploy-db", ["edit prod config by hand", "restart service"], "failure", ["E1045 access denied"])
    card = pb.record_outcome("deploy-db", ["run migrations", "restart service"], "success")
    assert card["avoid_steps"] == ["edit prod config by hand"]
    assert card["recommended_steps"] == ["run migrations", "restart service"]
    assert card["preconditions"] == ["seen: E1045 access denied"] and card["status"] == "draft"
    assert len(card["evidence"]) == 2 and 0 < card["confidence"] <= 0.9
    again = pb.record_outcome("deploy-db", ["run migrations", "restart service"], "success")
    assert again["version"] == 2 and pb.card(card["uid"])["status"] == "superseded"
    back = pb.rollback_card(again["uid"])
    assert back["uid"] == card["uid"] and back["status"] == "active"
    assert pb.reject_card(card["uid"])["status"] == "rejected"


def test_promotion_needs_the_owners_approval(store):
    pb, card, req = _promotable(store)
    assert req["check_passed"] and req["replay_passed"], req["report"]
    wf = pb.workflow("deploy-db")
    assert wf["current_version"] is None  # requested is not published
    v = wf["versions"][0]
    with pytest.raises(ValidationError, match="only its owner"):
        pb.approve("deploy-db", v["uid"], approver="mallory", version_hash=v["content_hash"])
    with pytest.raises(ValidationError, match="hash approved"):
        pb.approve("deploy-db", v["uid"], approver="alice", version_hash="0" * 64)
    published = pb.approve("deploy-db", v["uid"], approver="alice", version_hash=v["content_hash"], comment="ok")
    assert published["current_version"] == v["uid"]
    approvals = published["versions"][0]["approvals"]
    assert approvals[0]["approver"] == "alice" and approvals[0]["version_hash"] == v["content_hash"]


def test_drop_tenant_leaves_no_playbook_behind(store, driver):
    """drop_tenant deletes everything a tenant has: cards, outcomes, workflows, their versions and
    approvals too (they are written beside their ledger events, not replayed from them) — a tenant
    created again under the same name starts empty."""
    pb, card, req = _promotable(store)
    v = pb.workflow("deploy-db")["versions"][0]
    pb.approve("deploy-db", v["uid"], approver="alice", version_hash=v["content_hash"])
    store.drop_tenant()
    left = driver.execute_query("MATCH (n {tenant: $t}) RETURN labels(n)[0] AS label, count(*) AS n",
                                t=store.tenant).records
    assert [r.data() for r in left] == []
    assert store.playbooks.cards() == []


def test_a_version_changed_after_its_check_is_refused(store):
    pb, card, req = _promotable(store)
    v = pb.workflow("deploy-db")["versions"][0]
    edited = pb.edit_version(v["uid"], text="Run migrations, restart, and also drop the cache.")
    with pytest.raises(ValidationError, match="changed after it was checked"):
        pb.approve("deploy-db", v["uid"], approver="alice", version_hash=edited["content_hash"])
    assert pb.workflow("deploy-db")["current_version"] is None


def test_failed_checks_block_approval(store):
    pb = store.playbooks
    pb.record_outcome("t", ["a"], "failure")
    card = pb.record_outcome("t", ["b"], "success")
    req = pb.request_promotion(card["uid"], workflow="t", owner="alice", text="do b", scenario="t", inputs=["x"],
                               outputs=["y"], tool_permissions=[], validation_rules=["must: a", "garbage rule"])
    assert not req["check_passed"] and not req["replay_passed"]
    v = pb.workflow("t")["versions"][0]
    with pytest.raises(ValidationError, match="did not pass its checks"):
        pb.approve("t", v["uid"], approver="alice", version_hash=v["content_hash"])


def test_rollback_and_regression(store):
    pb, card, req = _promotable(store)
    v1 = pb.workflow("deploy-db")["versions"][0]
    pb.approve("deploy-db", v1["uid"], approver="alice", version_hash=v1["content_hash"])
    for _ in range(5):
        pb.feedback("deploy-db", success=True)
    req2 = pb.request_promotion(card["uid"], workflow="deploy-db", owner="alice", text="Run migrations, restart. v2",
                                scenario="deploy-db", inputs=["release"], outputs=["report"],
                                tool_permissions=["shell"], validation_rules=RULES)
    v2 = next(v for v in pb.workflow("deploy-db")["versions"] if v["uid"] == req2["version"])
    assert v2["number"] == 2
    pb.approve("deploy-db", v2["uid"], approver="alice", version_hash=v2["content_hash"])
    flags = [pb.feedback("deploy-db", success=False)["regression"] for _ in range(5)]
    assert flags == [False, False, False, False, True]  # flagged once it has enough uses
    with pytest.raises(ValidationError, match="cannot roll back"):
        pb.rollback("deploy-db", actor="mallory")
    back = pb.rollback("deploy-db", actor="alice")
    assert back["current_version"] == v1["uid"]
    assert next(v for v in back["versions"] if v["uid"] == v2["uid"])["status"] == "rolled_back"


def test_l4_wins_over_l3_and_cards_are_capped(store):
    pb, card, req = _promotable(store)
    v = pb.workflow("deploy-db")["versions"][0]
    pb.approve("deploy-db", v["uid"], approver="alice", version_hash=v["content_hash"])
    bad = pb.draft_card("deploy-db", recommended_steps=["edit prod config by hand"], area="deploy-db", confidence=0.8)
    pb.activate_card(bad["uid"], actor="alice")  # a draft is no advice until a person activates it
    for i in range(4):
        pb.activate_card(pb.draft_card(f"other-{i}", recommended_steps=["x"], area="deploy-db")["uid"], actor="alice")
    got = pb.applicable("deploy-db")
    assert [r["name"] for r in got["rules"]] == ["deploy-db"]
    assert len(got["cards"]) == 3
    marked = next(c for c in got["cards"] if c["uid"] == bad["uid"])
    assert marked["conflicts_with"] == ["deploy-db"]


def test_no_other_path_publishes(store, neo4j_target):
    pb, card, req = _promotable(store)
    v = pb.workflow("deploy-db")["versions"][0]
    # the ledger: no event publishes a workflow
    for op in ("workflow", "approve", "publish"):
        with pytest.raises(ValidationError, match="unknown op"):
            store.apply({"op": op, "workflow": "deploy-db", "version": v["uid"]})
        with pytest.raises(ValidationError, match="unknown op"):
            store.apply_bulk([{"op": op, "workflow": "deploy-db"}])
    # the Cypher files: only approve and rollback set current_version, both owner-guarded, and
    # approve records the Approval in the same statement
    setters = [n for n in queries.names() if re.search(r"current_version\s*=", queries.get(n).text)]
    assert sorted(setters) == ["playbook/approve", "playbook/rollback"]
    approve = queries.get("playbook/approve").text
    assert "$approver = w.owner OR $approver IN w.delegates" in approve and "CREATE (a:Approval" in approve
    assert "content_hash = v.checked_hash" in approve
    # the CLI: a non-owner is refused with one line
    env = dict(os.environ, NEO4J_URI=neo4j_target.settings.uri)
    proc = subprocess.run([EXE, "playbook", "approve", "deploy-db", v["uid"], "--approver", "mallory",
                           "--hash", v["content_hash"], "-t", store.tenant], capture_output=True, text=True, env=env)
    assert proc.returncode == 1 and proc.stderr.startswith("Error: 'mallory' may not approve")
    assert pb.workflow("deploy-db")["current_version"] is None
    # and the owner can, through the CLI too
    ok = subprocess.run([EXE, "playbook", "approve", "deploy-db", v["uid"], "--approver", "alice",
                         "--hash", v["content_hash"], "-t", store.tenant, "--json"], capture_output=True, text=True, env=env)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["current_version"] == v["uid"]


def test_unknown_things_are_typed_errors(store):
    with pytest.raises(NotFoundError):
        store.playbooks.card("nope")
    with pytest.raises(NotFoundError):
        store.playbooks.workflow("nope")
    with pytest.raises(ValidationError):
        store.playbooks.record_outcome("t", "not a list", "success")  # type: ignore[arg-type]


def test_context_carries_the_rule_and_at_most_three_cards(store):
    # first: playbook transitions are ledger events, so after them record time is "now"
    store.set("db", "port", "5432", recorded_at="2026-01-01T00:00:00Z")
    pb, card, req = _promotable(store)
    v = pb.workflow("deploy-db")["versions"][0]
    pb.approve("deploy-db", v["uid"], approver="alice", version_hash=v["content_hash"])
    for i in range(4):
        drafted = pb.draft_card(f"deploy-db-{i}", recommended_steps=["edit prod config by hand"], area="deploy-db",
                                confidence=0.5)
        pb.activate_card(drafted["uid"], actor="alice")
    ctx = store.context("deploy-db: run the migration on db", subject="db", area="deploy-db")
    assert [r.name for r in ctx.rules] == ["deploy-db"] and len(ctx.cards) <= 3
    assert all(c.conflicts_with == ["deploy-db"] for c in ctx.cards if "edit prod config by hand" in c.recommended_steps)
    text = ctx.render()
    assert text.index("### Rules: binding, approved by their owners") < text.index("### Facts") < text.index("### Advice from past tasks")
    # without an area, rules and cards are matched by the task's words
    assert [r.name for r in store.context("deploy-db tonight", subject="db").rules] == ["deploy-db"]
    assert store.context("what is the db port?", subject="db").rules == []
