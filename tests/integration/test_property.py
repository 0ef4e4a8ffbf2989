"""Random event sequences through the store and through a small reference model of docs/design.md §5.

The reference model below is written from the docs/design.md text directly (brute force, no shared
code with graphmem.core.temporal); every as_of answer of the store, over valid and record time,
must equal the model's.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.examples_budget import examples

from graphmem.core.errors import GraphMemError

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
SUBJECT = "subj"


def day(n: float) -> datetime:
    return T0 + timedelta(days=n)


@dataclass
class Ev:
    kind: str  # set | revoke | retract
    value: str | None
    vf: int
    vt: int | None
    layer: str
    author: str | None
    rec: int
    ref: str | None = None
    target: int | None = None  # for retract: index of the set it withdraws
    retracted_at: int | None = None
    expires: int | None = None  # docs/design.md §5: from then on it takes no part, as if retracted then


def model_as_of(events: list[Ev], t: float, k: float) -> tuple[str, frozenset]:
    """docs/design.md §5, literally: visible → first layer that speaks → exception or latest change
    point → each author's latest, the subject's own word, one value or a conflict."""
    live = [e for e in events if e.kind != "retract" and e.rec <= k
            and not (e.retracted_at is not None and e.retracted_at <= k)
            and not (e.expires is not None and e.expires <= k)]
    for layer in ("L0", "L1", "L2"):
        mine = [e for e in live if e.layer == layer]
        exceptions = [e for e in mine if e.kind == "set" and e.vt is not None and e.vf <= t < e.vt]
        if exceptions:
            group = exceptions
        else:
            points = [e for e in mine if (e.kind == "revoke" or e.vt is None) and e.vf <= t]
            if not points:
                continue
            latest = max(e.vf for e in points)
            group = [e for e in points if e.vf == latest]
        last_by_author: dict = {}
        for e in sorted(group, key=lambda e: e.rec):
            last_by_author[e.author] = e
        winners = list(last_by_author.values())
        own = [e for e in winners if e.author == SUBJECT]
        if own:
            winners = own
        values = {e.value if e.kind == "set" else None for e in winners}
        if len(values) == 1:
            v = values.pop()
            return ("none", frozenset()) if v is None else ("value", frozenset([v]))
        return ("conflict", frozenset(v for v in values if v is not None))
    return ("none", frozenset())


@st.composite
def histories(draw):
    n = draw(st.integers(min_value=1, max_value=6))
    events: list[Ev] = []
    for i in range(n):
        rec = i * 2 + 1
        sets = [j for j, e in enumerate(events) if e.kind == "set" and e.retracted_at is None]
        kind = draw(st.sampled_from(["set", "set", "set", "revoke"] + (["retract"] if sets else [])))
        if kind == "retract":
            j = draw(st.sampled_from(sets))
            events[j].retracted_at = rec
            events.append(Ev("retract", None, 0, None, "L1", None, rec, target=j))
            continue
        vf = draw(st.integers(min_value=0, max_value=12))
        bounded = kind == "set" and draw(st.booleans())
        vt = vf + draw(st.integers(min_value=1, max_value=5)) if bounded else None
        expires = rec + draw(st.integers(min_value=1, max_value=6)) if kind == "set" and draw(st.booleans()) else None
        events.append(Ev(kind, draw(st.sampled_from(["x", "y", "z"])) if kind == "set" else None, vf, vt,
                         draw(st.sampled_from(["L1", "L1", "L2"])), draw(st.sampled_from([None, "a", SUBJECT])),
                         rec, ref=f"r{i}", expires=expires))
    return events


def _to_event(e: Ev, events: list[Ev]) -> dict:
    base = {"recorded_at": day(e.rec).isoformat()}
    if e.kind == "retract":
        return {"op": "retract", "ref": events[e.target].ref, **base}
    out = {"op": e.kind, "subject": SUBJECT, "topic": "t", "authority": e.layer, **base}
    if e.author:
        out["actor"] = e.author
    if e.kind == "set":
        out.update(value=e.value, valid_from=day(e.vf).isoformat(), ref=e.ref)
        if e.vt is not None:
            out["valid_to"] = day(e.vt).isoformat()
        if e.expires is not None:
            out["expires_at"] = day(e.expires).isoformat()
    else:
        out["effective"] = day(e.vf).isoformat()
    return out


def _store_answer(a) -> tuple[str, frozenset]:
    if a.conflict:
        return ("conflict", frozenset(a.conflict))
    if a.value is not None:
        return ("value", frozenset([a.value]))
    return ("none", frozenset())


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(events=histories())
def test_store_agrees_with_reference_model(store, events):
    mem = store.for_tenant(f"{store.tenant}-{uuid.uuid4().hex[:8]}")
    try:
        for e in events:
            try:
                mem.apply(_to_event(e, events))
            except GraphMemError as err:  # the generator only makes valid events
                raise AssertionError(f"refused {e}: {err}") from err
        last = events[-1].rec
        expiries = {e.expires for e in events if e.expires is not None}
        ks = sorted({e.rec for e in events} | {last + 1} | expiries | {x + 0.5 for x in expiries})

        def check(when: str, ks: list[float], rules_view: bool) -> None:
            for k in ks:
                for t in (0, 0.5, 2, 4.5, 7, 9.5, 13, 16.5, 20):
                    want = model_as_of(events, t, k)
                    got = _store_answer(mem.as_of(SUBJECT, "t", valid_at=day(t), known_at=day(k)))
                    assert got == want, f"{when} t={t} k={k}: store {got} model {want}\n{events}"
                    if rules_view:
                        both = _store_answer(mem.as_of(SUBJECT, "t", valid_at=day(t), known_at=day(k),
                                                       include_candidates=True))
                        assert both == want, f"{when} (rules view) t={t} k={k}: {both} model {want}\n{events}"
        check("before sweep", ks, rules_view=False)
        if expiries:  # both views agree, and no answer depends on whether the sweeper ran
            after = sorted(expiries | {last + 1})
            check("rules view", after, rules_view=True)
            mem.sweep()
            check("after sweep", after, rules_view=False)
    finally:
        mem.drop_tenant()
