"""Quoted documents are history at their own date, never current (issue #43, item 3).

The projection turns each claim of a ``quote`` into an assertion bounded to ``[the quoted
document's time, the quote)`` (``graphmem.store.projection.handlers.quoted_stretch``); the temporal
rules then decide. These tests hold that pair, without a database, to the contract of
docs/semantics.md: no quote changes what is answered now (a hypothesis property over mixed slots),
and a quote alone answers inside its own stretch. The same through the store is
tests/integration/test_quote_history.py.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.core.temporal import Assertion, View, resolve, resolve_many, timeline
from graphmem.store.projection.handlers import quoted_stretch

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
END = 400  # every event in these slots happens before day END


def day(n: int) -> datetime:
    return T0 + timedelta(days=n)


def quote(uid: str, value: str, doc: int, quoted: int, seq: int, author: str | None = "lin") -> Assertion | None:
    """The assertion the projection makes of one claim: ``None`` when the cited source is not older."""
    start, end = quoted_stretch(day(doc), day(quoted), day(quoted))
    if end is None:
        return None
    return Assertion(uid=uid, seq=seq, kind="set", value=value, valid_from=start, valid_to=end,
                     recorded_at=day(quoted), author=author, said_at=day(doc), quoted=True, source=f"{uid}-doc")


def test_a_quote_alone_answers_inside_its_stretch_and_not_after():
    q = quote("q", "12 Elm St", doc=10, quoted=100, seq=1)
    now = View(known_at=day(END))
    assert resolve([q], day(10), now, "lin").value == "12 Elm St"
    assert resolve([q], day(99), now, "lin").value == "12 Elm St"
    assert resolve([q], day(100), now, "lin").kind == "none"  # the day it was quoted: not current
    assert resolve([q], day(9), now, "lin").kind == "none"  # before the document: nothing
    [seg] = timeline([q], now, "lin")
    assert (seg.valid_from, seg.valid_to, seg.resolution.value) == (day(10), day(100), "12 Elm St")


def test_a_source_that_is_not_older_than_its_quote_gives_no_claim():
    assert quoted_stretch(day(5), day(5), day(5)) == (day(5), None)
    assert quoted_stretch(day(6), day(5), day(5)) == (day(6), None)
    # the record time bounds it too: a quoting source dated after its own recording asserts nothing later
    assert quoted_stretch(day(1), day(9), day(5)) == (day(1), day(5))


def test_a_statement_said_after_the_document_wins_over_the_quote():
    moved = Assertion(uid="s", seq=2, kind="set", value="9 Oak Ave", valid_from=day(5), recorded_at=day(50),
                      author="lin", said_at=day(50))  # said on day 50: "I've lived on Oak Ave since day 5"
    q = quote("q", "12 Elm St", doc=10, quoted=100, seq=3)
    now = View(known_at=day(END))
    r = resolve([moved, q], day(20), now, "lin")
    assert (r.value, r.primary.uid) == ("9 Oak Ave", "s")


def test_a_statement_said_before_the_document_is_history_the_document_fills_then_resumes():
    old = Assertion(uid="s", seq=1, kind="set", value="1 Pine Rd", valid_from=day(0), recorded_at=day(0),
                    author="lin", said_at=day(0))
    q = quote("q", "12 Elm St", doc=10, quoted=100, seq=2)
    now = View(known_at=day(END))
    assert resolve([old, q], day(20), now, "lin").value == "12 Elm St"  # the newer evidence for day 20
    assert resolve([old, q], day(200), now, "lin").primary.uid == "s"  # now: the quote changes nothing


# -- the property: no quote ever changes what is answered now ---------------------------------

_value = st.sampled_from(["A", "B", "C"])
_direct = st.tuples(st.sampled_from(["set", "bounded", "revoke"]), _value, st.integers(0, END - 60),
                    st.integers(1, 50), st.integers(0, END - 60), st.sampled_from(["L1", "L2"]),
                    st.sampled_from(["lin", "bob", None]))
_quoted = st.tuples(_value, st.integers(0, END - 60), st.integers(0, END - 60), st.sampled_from(["lin", "bob", None]))


def _slot(direct: list, quoted: list) -> tuple[list[Assertion], list[Assertion]]:
    ds: list[Assertion] = []
    for i, (kind, value, vf, length, said, layer, author) in enumerate(direct):
        rec = max(vf, said)
        ds.append(Assertion(uid=f"d{i}", seq=i + 1, kind="revoke" if kind == "revoke" else "set",
                            value=None if kind == "revoke" else value, valid_from=day(vf),
                            valid_to=day(vf + length) if kind == "bounded" else None, recorded_at=day(rec),
                            authority=layer, author=author, said_at=day(said)))
    qs = [q for j, (value, doc, at, author) in enumerate(quoted)
          if (q := quote(f"q{j}", value, doc, at, 1000 + j, author)) is not None]
    return ds, qs


@settings(max_examples=400, deadline=None)
@given(st.lists(_direct, max_size=6), st.lists(_quoted, min_size=1, max_size=4), st.integers(END, END + 400))
def test_no_quote_ever_changes_what_holds_now(direct, quoted, now_day):
    ds, qs = _slot(direct, quoted)
    view, now = View(known_at=day(END + 500)), day(now_day)
    with_q, without = resolve(ds + qs, now, view, "lin"), resolve(ds, now, view, "lin")
    assert with_q.key() == without.key()
    # a many-valued topic: the same values from the same facts (their order follows first appearance)
    assert sorted(r.key() for r in resolve_many(ds + qs, now, view)) == sorted(r.key() for r in resolve_many(ds, now, view))
    # and no stretch of the timeline that reaches the present comes from a quote
    for seg in timeline(ds + qs, view, "lin"):
        if seg.valid_to is None or seg.valid_to > day(END):
            assert not seg.fact.startswith("q"), seg


@settings(max_examples=200, deadline=None)
@given(st.lists(_quoted, min_size=1, max_size=1), st.integers(0, END))
def test_a_lone_quote_is_what_its_own_dates_answer(quoted, t):
    _, qs = _slot([], quoted)
    if not qs:
        return
    [q] = qs
    r = resolve(qs, day(t), View(known_at=day(END + 500)), "lin")
    inside = q.valid_from <= day(t) < q.valid_to  # type: ignore[operator]
    assert (r.value == q.value) if inside else r.kind == "none"


def test_a_quote_that_repeats_the_standing_statement_cites_the_statement():
    own = Assertion(uid="s", seq=1, kind="set", value="Qinghe", valid_from=day(0), recorded_at=day(0),
                    author="lin", said_at=day(0))
    q = quote("q", "Qinghe", doc=1, quoted=30, seq=2)  # an email of day 1 saying the same, quoted on day 30
    r = resolve([own, q], day(10), View(known_at=day(END)), "lin")
    assert (r.value, r.primary.uid) == ("Qinghe", "s")
    other = quote("q2", "Hewan", doc=1, quoted=30, seq=3)  # one that says otherwise is the newer evidence
    assert resolve([own, other], day(10), View(known_at=day(END)), "lin").primary.uid == "q2"
