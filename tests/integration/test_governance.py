"""Forgetting and audit, tried adversarially: erase, then look for the erased strings everywhere."""

from __future__ import annotations

import json

import pytest

from graphmem import ValidationError

SECRET_SUBJECT = "zz-erase-me-7f3a"
SECRET_VALUES = ["Qx-Secret-Lane-4471", "Hx-Hidden-Road-9931", "Zx-Private-Hotel-555"]


def _scan(driver, tenant: str, needles: list[str]) -> list[str]:
    """Every property of every node and relationship of the tenant, as text."""
    records, _, _ = driver.execute_query(
        "MATCH (n) WHERE n.tenant = $t OPTIONAL MATCH (n)-[r]-() "
        "RETURN properties(n) AS np, properties(r) AS rp", t=tenant)
    hits = []
    for r in records:
        for props in (r["np"] or {}, r["rp"] or {}):
            text = json.dumps(props, default=str, ensure_ascii=False)
            hits.extend(f"{needle} in {text[:120]}" for needle in needles if needle in text)
    return hits


def test_erase_subject_removes_content_everywhere_and_rebuild_does_not_resurrect(store, driver):
    s = SECRET_SUBJECT
    store.add_source("m1", kind="message", at="2026-09-01T09:00:00Z", text=f"I live on {SECRET_VALUES[0]}.", author=s)
    store.set(s, "home_address", SECRET_VALUES[0], source="m1", recorded_at="2026-09-01T09:00:00Z")
    store.ingest(f"I moved to {SECRET_VALUES[1]}.", id="m2", speaker=s, at="2026-09-18T10:00:00Z")
    store.set(s, "trip_lodging", SECRET_VALUES[2], valid_from="2026-10-03", valid_to="2026-10-08", ref="t1",
              recorded_at="2026-09-28T00:00:00Z", reason=f"booked {SECRET_VALUES[2]}")
    store.set("apollo", "managed_by", object=s, recorded_at="2026-09-29T00:00:00Z")
    store.add_source("e1", kind="email", at="2026-09-30T00:00:00Z", text="Port is 8000.", author="ops")
    store.set("deploy", "port", "8000", source="e1", recorded_at="2026-09-30T00:00:00Z")
    assert _scan(driver, store.tenant, [s, *SECRET_VALUES])  # it is there before

    summary = store.erase(subject=s, actor="dpo", reason="GDPR request #12")
    assert summary["kind"] == "subject" and summary["facts"] >= 3 and summary["sources"] >= 2
    assert _scan(driver, store.tenant, [s, *SECRET_VALUES]) == []
    assert store.as_of(s, "home_address").value is None
    assert store.as_of(s, "home_address", known_at="2026-09-20").value is None  # history forgets too
    assert store.as_of("apollo", "managed_by").value is None
    assert store.as_of("deploy", "port").value == "8000"  # others keep theirs
    store.rebuild()
    assert _scan(driver, store.tenant, [s, *SECRET_VALUES]) == []
    assert store.as_of("deploy", "port").value == "8000"
    tomb = [e for e in store.events() if e["op"] == "erase"][0]
    assert tomb["actor"] == "dpo" and json.loads(tomb["payload"])["kind"] == "subject"
    audit = store.audit(since="2026-01-01", until="2100-01-01")
    assert [a for a in audit if a["op"] == "erase"][0]["reason"] == "GDPR request #12"
    assert SECRET_SUBJECT not in json.dumps(audit) and all(v not in json.dumps(audit) for v in SECRET_VALUES)


def test_erase_source_removes_what_was_drawn_from_it(store, driver):
    store.add_source("leak", kind="document", at="2026-05-01", text=f"Office {SECRET_VALUES[1]}", author="hr")
    store.set("dana", "office", SECRET_VALUES[1], source="leak", recorded_at="2026-05-01T00:00:00Z")
    store.set("dana", "diet", "vegan", recorded_at="2026-05-02T00:00:00Z")
    store.erase(source="leak", actor="dpo", reason="leaked document")
    assert _scan(driver, store.tenant, [SECRET_VALUES[1]]) == []
    assert store.as_of("dana", "office").value is None and store.as_of("dana", "diet").value == "vegan"


def test_erase_needs_exactly_one_target(store):
    with pytest.raises(ValidationError):
        store.erase()
    with pytest.raises(ValidationError):
        store.erase(subject="a", source="b")


def test_audit_is_attributable_and_matches_known_at(store):
    store.set("x", "port", "1", recorded_at="2026-01-01T00:00:00Z", actor="alice", reason="initial")
    store.set("x", "port", "2", recorded_at="2026-02-01T00:00:00Z", actor="bob", reason="moved")
    store.revoke("x", "port", recorded_at="2026-03-01T00:00:00Z", actor="carol", reason="decommissioned")
    rows = store.audit(since="2026-01-15", subject="x")
    assert [(r["op"], r["actor"], r["reason"]) for r in rows] == [("set", "bob", "moved"),
                                                                   ("revoke", "carol", "decommissioned")]
    assert rows[0]["replaced"][0]["value"] == "1" and rows[0]["facts"][0]["value"] == "2"  # before / after
    # state at a past record time is what the audit trail up to then says
    for k, want in [("2026-01-15", "1"), ("2026-02-15", "2"), ("2026-03-15", None)]:
        trail = store.audit(until=k, subject="x")
        replay = store.for_tenant(store.tenant + "-replay")
        try:
            replay.apply_many([r["payload"] for r in trail])
            assert replay.as_of("x", "port").value == want == store.as_of("x", "port", known_at=k).value
        finally:
            replay.drop_tenant()
