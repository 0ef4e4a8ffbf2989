"""The resolution rules of docs/design.md §5, one case each, without a database."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from graphmem.core.temporal import Assertion, View, resolve, resolve_many, timeline

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def day(n: int) -> datetime:
    return T0 + timedelta(days=n)


_seq = iter(range(1, 10_000))


def a(value, vf, rec, *, vt=None, kind="set", layer="L1", author=None, **kw) -> Assertion:
    n = next(_seq)
    return Assertion(uid=f"f{n}", seq=n, kind=kind, value=value, valid_from=day(vf), valid_to=day(vt) if vt else None,
                     recorded_at=day(rec), authority=layer, author=author, **kw)


NOW = View(known_at=day(1000))


def test_latest_change_point_wins_and_revoke_ends_it():
    facts = [a("8000", 0, 0), a("9000", 5, 5), a(None, 8, 8, kind="revoke")]
    assert resolve(facts, day(3), NOW, "s").value == "8000"
    assert resolve(facts, day(6), NOW, "s").value == "9000"
    assert resolve(facts, day(9), NOW, "s").kind == "none"


def test_known_at_hides_later_records():
    facts = [a("A", 0, 0), a("B", 5, 10)]
    assert resolve(facts, day(6), View(known_at=day(7)), "s").value == "A"
    assert resolve(facts, day(6), NOW, "s").value == "B"


def test_exception_overlays_and_standing_value_resumes():
    facts = [a("B5", 0, 0), a("remote", 10, 5, vt=13)]
    assert resolve(facts, day(11), NOW, "s").value == "remote"
    assert resolve(facts, day(13), NOW, "s").value == "B5"


def test_inferred_never_overrides_explicit():
    facts = [a("vegetarian", 0, 0), a("omnivore", 5, 5, layer="L2")]
    assert resolve(facts, day(6), NOW, "s").value == "vegetarian"


def test_explicit_revoke_is_not_overridden_by_inferred_value():
    facts = [a("x", 0, 0, layer="L2"), a(None, 3, 3, kind="revoke")]
    assert resolve(facts, day(4), NOW, "s").kind == "none"


def test_same_change_point_two_authors_conflict_and_subject_wins():
    facts = [a("B5", 0, 0, author="hr"), a("C2", 0, 1, author="facilities")]
    r = resolve(facts, day(2), NOW, "dana")
    assert r.kind == "conflict" and set(r.values) == {"B5", "C2"}
    facts.append(a("C2", 0, 2, author="dana"))
    assert resolve(facts, day(3), NOW, "dana").value == "C2"


def test_each_authors_latest_counts():
    facts = [a("B5", 0, 0, author="hr"), a("C2", 0, 1, author="hr")]
    assert resolve(facts, day(2), NOW, "dana").value == "C2"


def test_l0_only_in_its_session_and_candidates_only_on_request():
    facts = [a("zh", 0, 0, layer="L0", session="task-1"), a("en", 0, 0, status="candidate")]
    assert resolve(facts, day(1), NOW, "s").kind == "none"
    assert resolve(facts, day(1), View(known_at=day(5), session="task-1"), "s").value == "zh"
    assert resolve(facts, day(1), View(known_at=day(5), include_candidates=True), "s").value == "en"


def test_confirmation_changes_record_time_only():
    c = a("zh", 0, 0, status="candidate", confirmed_at=day(4))
    assert resolve([c], day(1), View(known_at=day(3)), "s").kind == "none"
    assert resolve([c], day(1), View(known_at=day(5)), "s").value == "zh"


def test_retract_hides_from_then_on():
    r = a("hotel", 3, 0, vt=8, retracted_at=day(2))
    assert resolve([r], day(5), View(known_at=day(1)), "s").value == "hotel"
    assert resolve([r], day(5), NOW, "s").kind == "none"


def test_quote_fills_the_past_but_never_overrides_later_statements():
    move = a("Hewan", 20, 25)  # said on day 25: moved on day 20
    quote = a("Qinghe", 22, 30, quoted=True, said_at=day(22))  # an email of day 22, quoted on day 30
    assert resolve([a("Qinghe", 0, 0), move, quote], day(23), NOW, "s").value == "Hewan"
    old = a("Oak", 10, 30, quoted=True, said_at=day(10))  # an email of day 10 fills in the past
    assert resolve([a("Elm", 0, 0), old], day(12), NOW, "s").value == "Oak"


def test_many_valued_topic_revokes_one_value():
    facts = [a("peanuts", 0, 0), a("shellfish", 30, 30), a("shellfish", 150, 150, kind="revoke")]
    assert [r.value for r in resolve_many(facts, day(60), NOW)] == ["peanuts", "shellfish"]
    assert [r.value for r in resolve_many(facts, day(200), NOW)] == ["peanuts"]


def test_timeline_splits_around_an_exception():
    facts = [a("B5", 0, 0), a("remote", 10, 5, vt=13), a("B7", 20, 15)]
    segs = timeline(facts, NOW, "kim")
    values = [facts_by_uid.value for s in segs for facts_by_uid in facts if facts_by_uid.uid == s.fact]
    assert values == ["B5", "remote", "B5", "B7"]
    assert segs[0].valid_to == day(10) and segs[-1].valid_to is None


# --- one assertion alone: the shortcut agrees with the indexed path --------------------------------

from hypothesis import given, strategies as st  # noqa: E402

from graphmem.core.temporal import _indexed_stretches, _lone_stretches  # noqa: E402

_days = st.integers(0, 40).map(day)


@given(kind=st.sampled_from(["set", "revoke"]), value=st.sampled_from([None, "Paris"]), vf=_days,
       vt=st.one_of(st.none(), _days), layer=st.sampled_from(["L0", "L1", "L2", "L3"]), quoted=st.booleans(),
       said=st.one_of(st.none(), _days))
def test_one_assertion_alone_has_the_stretches_of_the_general_path(kind, value, vf, vt, layer, quoted, said):
    lone = Assertion(uid="f1", seq=1, kind=kind, value=value, valid_from=vf, recorded_at=day(50), valid_to=vt,
                     authority=layer, quoted=quoted, said_at=said)
    assert _lone_stretches(lone) == _indexed_stretches([lone])
