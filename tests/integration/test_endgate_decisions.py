"""The end gate keeps a task's decision as history of that task, not as a standing candidate that
every later task inherits (issue #44: the agent loop stored a one-off delivery decision as an
open-ended candidate, once more on every rerun)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

from graphmem.working.endgate import task_bound

T0 = datetime(2026, 10, 5, 9, tzinfo=timezone.utc)


def _decide(store, session: str, text: str, item_type: str = "decision"):
    w = store.working(session)
    w.add(text, type=item_type, id="d", author="agent",
          claim={"subject": "lin", "topic": "delivery_address", "value": "Seaside Hotel"})
    made = next(i.created_at for i in w.items() if i.id == "d")
    w.close("success", task="send-package")
    return made


def test_a_one_off_decision_holds_for_its_task_and_no_later(store):
    made = _decide(store, "run-1", "Deliver to the hotel while lin is away.")
    during = store.as_of("lin", "delivery_address", valid_at=made, include_candidates=True)
    assert (during.value, during.status, during.authority) == ("Seaside Hotel", "candidate", "L2")
    assert during.valid_to is not None
    assert store.as_of("lin", "delivery_address", include_candidates=True).value is None
    # the same task run again: each run's decision is its own stretch of history, none is standing
    _decide(store, "run-2", "Deliver to the hotel while lin is away.")
    assert store.as_of("lin", "delivery_address", include_candidates=True).value is None
    runs = store.assertions("lin", "delivery_address")
    assert len(runs) == 2 and all(a.valid_to is not None for a in runs)


def test_a_decision_that_says_it_stands_and_a_hypothesis_stay_open_ended(store):
    _decide(store, "standing", "From now on, deliver lin's parcels to the hotel.")
    now = store.as_of("lin", "delivery_address", include_candidates=True)
    assert (now.value, now.status, now.valid_to) == ("Seaside Hotel", "candidate", None)
    assert store.as_of("lin", "delivery_address").value is None  # still a candidate: never an answer by default


def test_task_bound_reads_the_items_kind_and_words():
    item = SimpleNamespace(type="decision", text="Book the 10:00 courier.", created_at=T0)
    assert task_bound(item, T0 + timedelta(hours=1)) == {"valid_from": T0, "valid_to": T0 + timedelta(hours=1)}
    assert task_bound(item, T0) == {"valid_from": T0, "valid_to": T0 + timedelta(microseconds=1)}  # never empty
    for text in ("Always ship to the office.", "以后都寄到公司。", "Going forward, use the office address."):
        assert task_bound(SimpleNamespace(type="decision", text=text, created_at=T0), T0) == {}
    assert task_bound(SimpleNamespace(type="hypothesis", text="lin is away.", created_at=T0), T0) == {}
