"""Deterministic time: expiry is part of the timeline, so no answer depends on whether (or when)
the sweeper ran; derived copies go stale when their content changes by itself; a value that holds
again after a gap is listed again in history."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem import GraphMem
from graphmem.core.errors import StaleError

from test_rebuild import canonical_hash


class Clock:
    def __init__(self, t: str) -> None:
        self.t = datetime.fromisoformat(t).replace(tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.t


GRID = [(v, k) for v in ("2026-01-15", "2026-02-15", "2026-03-15", "2026-04-15", None)
        for k in ("2026-01-15", "2026-02-15", "2026-03-31T23:59:59Z", "2026-04-01", "2026-04-15", None)]


def _answers(mem: GraphMem) -> dict:
    out = {}
    for v, k in GRID:
        for cands in (False, True):
            a = mem.as_of("kim", "office", valid_at=v, known_at=k, include_candidates=cands)
            out[(v, k, cands)] = (a.value, a.source, a.notes)
        out[("history", k)] = mem.history_values("kim", "office", known_at=k)
    ctx = mem.context("where is kim's office?", subject="kim", summary=False)
    out["context"] = [(i.topic, i.value) for i in ctx.items if i.topic == "office"]
    return out


def test_expiry_answers_do_not_depend_on_the_sweeper(store, neo4j_target, driver):
    clock = Clock("2026-05-01T00:00:00")
    mem = GraphMem(neo4j_target.settings, tenant=store.tenant, driver=driver, clock=clock, install_schema=False)
    mem.add_source("s1", kind="message", at="2026-01-01", text="kim: my office is Building 5", author="kim")
    mem.set("kim", "office", "Building 5", source="s1", recorded_at="2026-01-01T00:00:00Z")
    mem.add_source("s2", kind="message", at="2026-02-01", text="kim: Desk 7 until April", author="kim")
    mem.set("kim", "office", "Desk 7", source="s2", recorded_at="2026-02-01T00:00:00Z",
            expires_at="2026-04-01T00:00:00Z")
    before = _answers(mem)
    # Before any sweep: the expired value is gone in both views, what it replaced stands again.
    assert before[(None, None, False)][:2] == ("Building 5", "s1")
    assert before[(None, None, True)][:2] == ("Building 5", "s1")
    assert before[(None, None, False)][2][0].startswith("resumed: 'Desk 7'")
    assert before[("2026-03-15", "2026-03-31T23:59:59Z", False)][:2] == ("Desk 7", "s2")
    assert before[("2026-03-15", "2026-04-01", False)][:2] == ("Building 5", "s1")
    assert before["context"] == [("office", "Building 5")]
    assert mem.sweep() == 1
    assert _answers(mem) == before  # the sweeper only records
    assert [e["op"] for e in mem.events()].count("expire") == 1
    projection = canonical_hash(driver, mem.tenant)
    mem.rebuild(batch=1)  # replay one event per transaction: the same scheduled segments
    assert canonical_hash(driver, mem.tenant) == projection
    mem.rebuild()
    assert canonical_hash(driver, mem.tenant) == projection


def test_expired_value_with_nothing_before_it_notes_the_expiry(store):
    store.set("kim", "badge", "temp-11", recorded_at="2026-03-01T00:00:00Z", expires_at="2026-03-10T00:00:00Z")
    a = store.as_of("kim", "badge", valid_at="2026-03-05")
    assert a.value is None and a.notes[0].startswith("expired: 'temp-11'")
    assert store.as_of("kim", "badge", valid_at="2026-03-05", known_at="2026-03-09").value == "temp-11"


def test_a_later_event_before_the_expiry_reschedules_it(store):
    """An expiry is scheduled in record time; a retract of the expiring value before then cancels
    the schedule, and a new value after it takes over at its own record time."""
    store.set("kim", "desk", "A", valid_from="2026-01-01", recorded_at="2026-01-01T00:00:00Z")
    store.set("kim", "desk", "B", valid_from="2026-02-01", recorded_at="2026-02-01T00:00:00Z",
              expires_at="2026-04-01T00:00:00Z", ref="b")
    store.retract("b", recorded_at="2026-03-01T00:00:00Z")
    store.set("kim", "desk", "C", valid_from="2026-02-15", recorded_at="2026-03-15T00:00:00Z")
    got = {k: store.as_of("kim", "desk", valid_at="2026-03-01", known_at=k).value
           for k in ("2026-02-15", "2026-03-02", "2026-03-20", "2026-04-02")}
    assert got == {"2026-02-15": "B", "2026-03-02": "A", "2026-03-20": "C", "2026-04-02": "C"}


def test_summary_crossing_a_valid_to_is_stale(store, neo4j_target, driver):
    clock = Clock("2026-10-05T00:00:00")
    mem = GraphMem(neo4j_target.settings, tenant=store.tenant, driver=driver, clock=clock, install_schema=False)
    mem.set("lin", "home_address", "Hewan Rd", valid_from="2026-09-20", recorded_at="2026-09-25T00:00:00Z")
    mem.set("lin", "trip_lodging", "Hotel Jianguo", valid_from="2026-10-03", valid_to="2026-10-08",
            recorded_at="2026-09-30T00:00:00Z")
    s = mem.summary("lin")
    assert "Hotel Jianguo" in s.text and s.changes_at == datetime(2026, 10, 8, tzinfo=timezone.utc)
    assert mem.summary("lin", rebuild=False).text == s.text  # still fresh on Oct 5
    clock.t = datetime(2026, 10, 9, tzinfo=timezone.utc)
    with pytest.raises(StaleError, match="changed by itself"):
        mem.summary("lin", rebuild=False)
    fresh = mem.summary("lin")
    assert fresh.was_stale and "Hotel Jianguo" not in fresh.text and "Hewan Rd" in fresh.text


def test_summary_goes_stale_when_a_fact_expires(store, neo4j_target, driver):
    clock = Clock("2026-03-05T00:00:00")
    mem = GraphMem(neo4j_target.settings, tenant=store.tenant, driver=driver, clock=clock, install_schema=False)
    mem.set("kim", "badge", "temp-11", recorded_at="2026-03-01T00:00:00Z", expires_at="2026-03-10T00:00:00Z")
    assert "temp-11" in mem.summary("kim").text
    clock.t = datetime(2026, 3, 11, tzinfo=timezone.utc)
    assert "temp-11" not in mem.summary("kim").text


def test_history_lists_a_value_again_after_a_gap(store):
    store.set("deploy", "port", "8000", valid_from="2026-01-01", recorded_at="2026-01-01T00:00:00Z")
    store.revoke("deploy", "port", effective="2026-02-01", recorded_at="2026-02-01T00:00:00Z")
    store.set("deploy", "port", "8000", valid_from="2026-03-01", recorded_at="2026-03-01T00:00:00Z")
    assert store.history_values("deploy", "port") == ["8000", "8000"]
    store.set("web", "port", "80", valid_from="2026-01-01", recorded_at="2026-03-02T00:00:00Z")
    store.set("web", "port", "80", valid_from="2026-02-01", recorded_at="2026-03-03T00:00:00Z")
    assert store.history_values("web", "port") == ["80"]  # touching repeats merge
