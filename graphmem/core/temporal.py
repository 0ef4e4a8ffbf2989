"""The temporal rules of docs/design.md §5, with no I/O.

Everything that decides *which* assertion answers lives here, as plain functions over
:class:`Assertion` records, so that it can be read in one sitting, unit-tested without a database
and driven by the property tests. The store uses it in two ways:

* on every write it recomputes the valid-time timeline of the touched (subject, topic, env) *as
  known at that record time* and materialises it as ``HOLDS`` segments in the graph, each with
  valid-time and record-time bounds; the named Cypher reads (``cypher/as_of.cypher``…) then only
  filter segments, which is what makes them fast and runnable in Neo4j Browser;
* for the views that are not materialised — an L0 ``session``, or ``include_candidates`` — the
  client fetches the assertions and calls :func:`resolve` / :func:`timeline` directly.

Vocabulary:

change point
    an open-ended ``set`` or a ``revoke``: it gives the standing value from its ``valid_from`` on.
exception
    a bounded ``set`` (``valid_to`` given): it wins over the standing value inside its interval.
quote
    an assertion drawn from a quoted (older) source: dated at that source's time, it fills in the
    past but never overrides an assertion that was *said* after the quoted document.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable, Literal, Sequence

from .assertions import EPSILON, LAYERS, Assertion, View, visible

__all__ = [
    "LAYERS",
    "Assertion",
    "Resolution",
    "Segment",
    "View",
    "resolve",
    "resolve_many",
    "standing_before",
    "timeline",
    "visible",
]


def _seen(assertions: Iterable[Assertion], view: View) -> list[Assertion]:
    """The assertions that take part in ``view``, each with its authority as of ``view.known_at``."""
    return [a.as_known_at(view.known_at) for a in assertions if visible(a, view)]


@dataclass(frozen=True)
class Resolution:
    """What holds at one instant: nothing, one value, or a conflict; and the assertions behind it.

    ``winners`` are the assertions that produced the answer, the one to cite first.
    """

    kind: Literal["none", "value", "conflict"]
    values: tuple[str | None, ...] = ()
    winners: tuple[Assertion, ...] = ()
    layer: str | None = None

    @property
    def value(self) -> str | None:
        return self.values[0] if self.kind == "value" else None

    @property
    def primary(self) -> Assertion | None:
        return self.winners[0] if self.winners else None

    def key(self) -> tuple[Any, ...]:
        return (self.kind, self.values, tuple(w.uid for w in self.winners))


NOTHING = Resolution("none")


def _order(a: Assertion) -> tuple[Any, ...]:
    return (a.recorded_at, a.seq)


def _settle(group: Sequence[Assertion], subject: str | None, layer: str) -> Resolution:
    """Rule 4: each author's latest; the subject's own word wins; else one value or a conflict."""
    latest: dict[str | None, Assertion] = {}
    for a in sorted(group, key=_order):
        latest[a.author] = a
    winners = sorted(latest.values(), key=_order, reverse=True)
    own = [a for a in winners if a.author is not None and a.author == subject]
    if own:
        winners = own
    values: list[str | None] = []
    for a in winners:
        v = a.value if a.kind == "set" else None
        if v not in values:
            values.append(v)
    if len(values) == 1:
        if values[0] is None:  # revoked: saying "no value" is still saying something
            return Resolution("none", winners=tuple(winners), layer=layer)
        return Resolution("value", (values[0],), tuple(winners), layer)
    # One winner per different value, the latest first.
    firsts: list[Assertion] = []
    for v in values:
        firsts.append(next(a for a in winners if (a.value if a.kind == "set" else None) == v))
    return Resolution("conflict", tuple(values), tuple(firsts), layer)


class _Layers:
    """The assertions of one slot indexed per layer, so the deciding group at any instant is found
    with a binary search instead of a scan: a slot with k change points costs O(k log k) for its
    whole timeline, not O(k²)."""

    def __init__(self, assertions: Iterable[Assertion]) -> None:
        self.layers: list[tuple[str, list[Assertion], list[datetime], list[datetime | None],
                                list[Assertion], list[datetime]]] = []
        # (change points, exceptions) per layer; a layer no assertion is in never speaks, so it
        # is left out rather than searched at every instant (the timeline runs once per write).
        by_layer: dict[str, tuple[list[Assertion], list[Assertion]]] = {}
        for a in assertions:
            cps_excs = by_layer.get(a.authority)
            if cps_excs is None:
                cps_excs = by_layer[a.authority] = ([], [])
            cps_excs[a.is_exception].append(a)
        for layer in LAYERS:
            if layer not in by_layer:
                continue
            cps, excs = by_layer[layer]
            if len(cps) > 1:
                cps.sort(key=_change_order)
            if len(excs) > 1:
                excs.sort(key=_change_order)
            prefix: list[datetime | None] = [None]  # prefix[i]: latest said_at of the direct cps[:i]
            for a in cps:
                last = prefix[-1]
                prefix.append(last if a.quoted or (last is not None and last >= a.said) else a.said)
            self.layers.append((layer, cps, [a.valid_from for a in cps], prefix, excs, [a.valid_from for a in excs]))

    def decide(self, t: datetime) -> tuple[str, list[Assertion]] | None:
        """Rules 2, 3 and 5: the first layer that speaks about ``t`` and the assertions that decide."""
        for layer, cps, vfs, prefix, excs, exc_vfs in self.layers:
            idx = bisect_right(vfs, t)
            active = [e for e in excs[:bisect_right(exc_vfs, t)] if t < e.valid_to]  # type: ignore[operator]
            if idx == 0 and not active:
                continue
            latest_said = prefix[idx]
            for e in active:
                if not e.quoted and (latest_said is None or e.said > latest_said):
                    latest_said = e.said

            def alive(a: Assertion) -> bool:  # a quote never overrides what was said after it
                return not a.quoted or latest_said is None or not latest_said > a.said

            live_exceptions = [e for e in active if alive(e)]
            if live_exceptions:
                if all(e.quoted for e in live_exceptions):
                    # A quoted claim (history, bounded at its quote) that only repeats the standing
                    # direct statement adds nothing: cite the person's statement, not the document.
                    direct = _direct_before(cps, idx)
                    if direct and {_said_value(a) for a in direct} == {_said_value(a) for a in live_exceptions}:
                        return layer, direct
                return layer, live_exceptions
            group, j = None, idx - 1
            while j >= 0:
                k = j
                while k >= 0 and cps[k].valid_from == cps[j].valid_from:
                    k -= 1
                members = [a for a in cps[k + 1:j + 1] if alive(a)]
                if members:
                    group = members
                    break
                j = k
            if group is None:
                continue
            if all(a.quoted for a in group):
                # A quote that only repeats what direct statements already say adds no change:
                # cite the direct statement, not the old document.
                direct = _direct_before(cps, j + 1)
                if direct and {_said_value(a) for a in direct} == {_said_value(a) for a in group}:
                    group = direct
            return layer, group
        return None


def _direct_before(cps: list[Assertion], idx: int) -> list[Assertion]:
    """The latest group of direct (not quoted) change points among ``cps[:idx]``."""
    j = idx - 1
    while j >= 0:
        k = j
        while k >= 0 and cps[k].valid_from == cps[j].valid_from:
            k -= 1
        members = [a for a in cps[k + 1:j + 1] if not a.quoted]
        if members:
            return members
        j = k
    return []


def _change_order(a: Assertion) -> tuple[datetime, datetime, int]:
    return (a.valid_from, a.recorded_at, a.seq)


def _deciding_group(assertions: Iterable[Assertion], t: datetime) -> tuple[str, list[Assertion]] | None:
    """Rules 2 and 3: the first layer that speaks about ``t``, and the assertions that decide."""
    return _Layers(assertions).decide(t)


def _said_value(a: Assertion) -> str | None:
    return a.value if a.kind == "set" else None


def resolve(assertions: Iterable[Assertion], t: datetime, view: View, subject: str | None) -> Resolution:
    """The answer for a one-valued topic at valid time ``t`` in ``view``."""
    decided = _deciding_group(_seen(assertions, view), t)
    if decided is None:
        return NOTHING
    layer, group = decided
    return _settle(group, subject, layer)


def resolve_many(assertions: Iterable[Assertion], t: datetime, view: View) -> list[Resolution]:
    """A many-valued topic: each value has its own timeline; a revoke without value ends all."""
    seen = _seen(assertions, view)
    out: list[Resolution] = []
    for v in _values_in_order(seen):
        mine = [a for a in seen if (a.kind == "set" and a.value == v) or (a.kind == "revoke" and a.value in (None, v))]
        decided = _deciding_group(mine, t)
        if decided is None:
            continue
        layer, group = decided
        last = max(group, key=_order)
        if last.kind == "set":
            out.append(Resolution("value", (v,), (last,), layer))
    return out


def _values_in_order(assertions: Sequence[Assertion]) -> list[str]:
    values: list[str] = []
    for a in sorted(assertions, key=_change_order):
        if a.kind == "set" and a.value is not None and a.value not in values:
            values.append(a.value)
    return values


@dataclass(frozen=True)
class Segment:
    """A stretch ``[valid_from, valid_to)`` of the timeline with one constant answer."""

    valid_from: datetime
    valid_to: datetime | None
    resolution: Resolution = field(compare=False)
    fact: str = ""
    conflict: bool = False

    def key(self) -> tuple[Any, ...]:
        return (self.fact, self.valid_from, self.valid_to, self.conflict)


def _breakpoints(assertions: Sequence[Assertion]) -> list[datetime]:
    points = {a.valid_from for a in assertions}
    points.update(a.valid_to for a in assertions if a.valid_to is not None)
    return sorted(points)


def timeline(assertions: Sequence[Assertion], view: View, subject: str | None, many: bool = False) -> list[Segment]:
    """The whole valid-time timeline as seen in ``view``, as segments (one per fact and stretch).

    The answer can only change at a ``valid_from`` or ``valid_to`` of some assertion, so it is
    evaluated once per stretch between consecutive breakpoints; neighbours with the same answer
    from the same facts are merged. Revoked stretches have no segment. A many-valued topic is
    the union of one timeline per value (each over that value's own assertions), which keeps a
    slot with hundreds of values linear in its values rather than cubic.
    """
    seen = _seen(assertions, view)
    if many:
        segments: list[Segment] = []
        revokes_all = [a for a in seen if a.kind == "revoke" and a.value is None]
        by_value: dict[str | None, list[Assertion]] = {}
        for a in seen:
            by_value.setdefault(a.value, []).append(a)
        for v in _values_in_order(seen):
            mine = by_value[v] + revokes_all
            for start, end, _layer, group in _stretches(mine):
                last = max(group, key=_order)
                if last.kind == "set":
                    segments.append(Segment(start, end, Resolution("value", (v,), (last,)), last.uid))
        return _merge(segments)
    segments = []
    for start, end, layer, group in _stretches(seen):
        r = _settle(group, subject, layer)
        if r.kind == "value":
            segments.append(Segment(start, end, r, r.winners[0].uid))
        elif r.kind == "conflict":
            # A revoke in a conflict has no value to point at; the stretch stays a conflict.
            segments.extend(Segment(start, end, r, w.uid, conflict=True) for w in r.winners if w.kind == "set")
    return _merge(segments)


def _stretches(assertions: list[Assertion]) -> list[tuple[datetime, datetime | None, str, list[Assertion]]]:
    """(start, end, layer, deciding group) for each stretch between breakpoints where a layer speaks."""
    if len(assertions) == 1:
        return _lone_stretches(assertions[0])
    return _indexed_stretches(assertions)


def _indexed_stretches(assertions: list[Assertion]) -> list[tuple[datetime, datetime | None, str, list[Assertion]]]:
    """:func:`_stretches` in general: the deciding group at each breakpoint, from the index."""
    points = _breakpoints(assertions)
    index = _Layers(assertions)
    out = []
    for i, start in enumerate(points):
        decided = index.decide(start)
        if decided is not None:
            out.append((start, points[i + 1] if i + 1 < len(points) else None, decided[0], decided[1]))
    return out


def _lone_stretches(a: Assertion) -> list[tuple[datetime, datetime | None, str, list[Assertion]]]:
    """:func:`_stretches` of one assertion, without building the index: it is the most common
    case (a many-valued slot is one timeline per value, usually one assertion each) and the
    answer is plain — an exception speaks inside its interval, a change point from its
    ``valid_from`` on (a revoke's ``valid_to`` only splits the stretch). With nothing else to
    outrank or outlive it, a quote speaks as itself. A property test holds it to
    :func:`_indexed_stretches`."""
    if a.authority not in LAYERS:
        return []
    if a.is_exception:
        return [(a.valid_from, a.valid_to, a.authority, [a])] if a.valid_from < a.valid_to else []  # type: ignore[operator]
    points = [p for p in _breakpoints([a]) if p >= a.valid_from]
    return [(p, points[i + 1] if i + 1 < len(points) else None, a.authority, [a]) for i, p in enumerate(points)]


def _merge(segments: list[Segment]) -> list[Segment]:
    """Join a segment to the previous one of the same fact when they touch and agree."""
    out: list[Segment] = []
    last_by_fact: dict[tuple[str, bool], int] = {}
    for seg in segments:
        i = last_by_fact.get((seg.fact, seg.conflict))
        if i is not None:
            prev = out[i]
            if prev.valid_to == seg.valid_from and prev.resolution.key() == seg.resolution.key():
                out[i] = Segment(prev.valid_from, seg.valid_to, prev.resolution, prev.fact, prev.conflict)
                continue
        last_by_fact[(seg.fact, seg.conflict)] = len(out)
        out.append(seg)
    return out


def standing_before(assertions: Sequence[Assertion], t: datetime, view: View, subject: str | None,
                    exclude: str | None = None) -> Resolution:
    """What stood just before instant ``t`` — the change point a new assertion replaces."""
    rest = [a for a in assertions if a.uid != exclude]
    return resolve(rest, t - EPSILON, view, subject)
