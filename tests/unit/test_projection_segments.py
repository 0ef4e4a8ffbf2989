"""The segment diff of the write path (graphmem.store.projection.segments), without a database: what a
slot's live segments become when its timeline is recomputed as known at one record time."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Any

from graphmem.core.temporal import Assertion
from graphmem.store.projection.segments import Recomputed, Seg, recompute, seg_id


def day(n: int) -> datetime:
    return datetime(2024, 1, 1, tzinfo=timezone.utc) + timedelta(days=n)


T1, T2, T3, T5 = day(100), day(200), day(300), day(500)  # record times, well after the valid times


def fact(uid: str, seq: int, value: str, valid_from: datetime, recorded_at: datetime, **kw: Any) -> Assertion:
    return Assertion(uid=uid, seq=seq, kind="set", value=value, valid_from=valid_from, recorded_at=recorded_at,
                     **kw)


def stored(change: Recomputed) -> list[Seg]:
    """The live segments as a later unit of work loads them."""
    return [replace(s, stored=True) for s in change.live]


def test_a_first_fact_starts_one_segment_at_its_record_time():
    a = fact("f1", 1, "Paris", day(0), T1)
    out = recompute([a], [], T1, "ann", many=False)
    assert out.ended == []
    assert [(s.fact, s.valid_from, s.valid_to, s.recorded_at, s.superseded_at) for s in out.started] == \
        [("f1", day(0), None, T1, None)]
    assert out.live == out.started
    assert out.started[0].seg == seg_id("f1", day(0), None, False, T1)


def test_nothing_changes_when_the_timeline_is_the_same():
    a = fact("f1", 1, "Paris", day(0), T1)
    live = stored(recompute([a], [], T1, "ann", many=False))
    out = recompute([a], live, T2, "ann", many=False)
    assert out.ended == [] and out.started == [] and out.live == live


def test_a_later_value_ends_the_open_segment_and_starts_the_new_stretches():
    a = fact("f1", 1, "Paris", day(0), T1)
    live = stored(recompute([a], [], T1, "ann", many=False))
    b = fact("f2", 2, "Lyon", day(10), T2)
    out = recompute([a, b], live, T2, "ann", many=False)
    assert [(s.seg, s.superseded_at, s.stored) for s in out.ended] == [(live[0].seg, T2, True)]
    assert sorted((s.fact, s.valid_from, s.valid_to, s.recorded_at) for s in out.started) == \
        [("f1", day(0), day(10), T2), ("f2", day(10), None, T2)]
    assert {s.seg for s in out.live} == {s.seg for s in out.started}


def test_the_input_is_not_changed():
    a = fact("f1", 1, "Paris", day(0), T1)
    live = stored(recompute([a], [], T1, "ann", many=False))
    before = list(live)
    recompute([a, fact("f2", 2, "Lyon", day(10), T2)], live, T2, "ann", many=False)
    assert live == before and live[0].superseded_at is None


def test_history_already_over_is_never_touched():
    old = Seg(seg="x", fact="f0", valid_from=day(0), valid_to=None, conflict=False, recorded_at=T1,
              superseded_at=T2, stored=True)
    a = fact("f1", 1, "Paris", day(0), T1)
    out = recompute([a], [old], T3, "ann", many=False)
    assert old not in out.live and all(s.seg != "x" for s in out.ended)


def test_an_expiry_schedules_the_end_and_what_resumes_then():
    a = fact("f1", 1, "Paris", day(0), T1)
    b = fact("f2", 2, "Lyon", day(10), T2, expires_at=T5)
    out = recompute([a, b], [], T2, "ann", many=False)
    spans = [(s.fact, s.valid_from, s.valid_to, s.recorded_at, s.superseded_at) for s in out.started]
    assert sorted(spans[:2], key=str) == [("f1", day(0), day(10), T2, T5), ("f2", day(10), None, T2, T5)]
    assert spans[2:] == [("f1", day(0), None, T5, None)]  # Paris resumes once Lyon has expired
    assert out.started[0].recorded_at == T2 and out.started[-1].recorded_at == T5  # in order of start
    assert [s.expires_at for s in out.started if s.fact == "f2"] == [T5]


def test_a_scheduled_segment_no_longer_wanted_is_dropped_not_ended():
    a = fact("f1", 1, "Paris", day(0), T1)
    b = fact("f2", 2, "Lyon", day(10), T2, expires_at=T5)
    live = stored(recompute([a, b], [], T2, "ann", many=False))
    retracted = replace(b, retracted_at=T3)  # Lyon withdrawn before it expires: Paris is back at T3
    out = recompute([a, retracted], live, T3, "ann", many=False)
    scheduled = [s for s in out.ended if s.recorded_at == T5]
    assert len(scheduled) == 1 and scheduled[0].gone  # ended where it began: never visible
    assert all(s.superseded_at == T3 for s in out.ended if s.recorded_at == T2)
    assert [(s.fact, s.valid_to, s.recorded_at) for s in out.started] == [("f1", None, T3)]
    assert all(not s.gone for s in out.live)


def test_many_valued_topics_keep_every_value():
    a = fact("f1", 1, "tea", day(0), T1)
    b = fact("f2", 2, "coffee", day(5), T2)
    out = recompute([a, b], [], T2, "ann", many=True)
    assert sorted(s.fact for s in out.live) == ["f1", "f2"]
    one = recompute([a, b], [], T2, "ann", many=False)
    assert sorted((s.fact, s.valid_to) for s in one.live) == [("f1", day(5)), ("f2", None)]


def test_segment_ids_come_from_content():
    assert seg_id("f1", day(0), None, False, T1) == seg_id("f1", day(0), None, False, T1)
    assert seg_id("f1", day(0), None, False, T1) != seg_id("f1", day(0), None, False, T2)
    assert seg_id("f1", day(0), None, False, T1) != seg_id("f1", day(0), None, True, T1)


def test_every_op_has_a_handler():
    from graphmem.core.models import OPS
    from graphmem.store.projection.handlers import HANDLERS

    assert sorted(HANDLERS) == sorted(OPS)


# -- properties: a slot built up one event at a time -----------------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

from graphmem.core.temporal import View, timeline  # noqa: E402

_steps = st.lists(st.tuples(st.sampled_from(["Paris", "Lyon", "Nice"]), st.integers(0, 30),
                            st.one_of(st.none(), st.integers(1, 400))), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(_steps, st.booleans())
def test_incremental_recomputes_show_the_timeline_as_known_at_each_record_time(steps, many):
    """Facts arrive one per record time (some with an expiry); after each recomputation the live
    segments in force then — and at each later expiry, with no other event — are exactly the
    timeline as known then, and recomputing again at the same record time changes nothing."""
    assertions: list[Assertion] = []
    live: list[Seg] = []
    for i, (value, valid_day, expires_in) in enumerate(steps, start=1):
        at = day(100 + 10 * i)
        expires = at + timedelta(days=expires_in) if expires_in else None
        assertions.append(fact(f"f{i}", i, value, day(valid_day), at, expires_at=expires))
        out = recompute(assertions, live, at, "ann", many=many)
        live = stored(out)
        later = sorted({a.expires_at for a in assertions if a.expires_at is not None and a.expires_at > at})
        for k in [at] + later:
            shown = {s.key() for s in live if s.recorded_at <= k and (s.superseded_at is None or s.superseded_at > k)}
            assert shown == {x.key() for x in timeline(assertions, View(known_at=k), "ann", many=many)}
        assert not any(s.gone for s in out.live)
        again = recompute(assertions, live, at, "ann", many=many)
        assert again.ended == [] and again.started == []
