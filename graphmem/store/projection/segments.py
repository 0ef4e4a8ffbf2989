"""The segment diff: what a slot's stored ``HOLDS``/``RELATED`` segments must become when its
timeline is recomputed as known at one record time. Pure functions over values, so the heart of
the projection's temporal semantics (docs/design.md §2, §5) is unit-tested without a database.

A slot's *live* segments are those not yet over in record time: the current ones and those a
future expiry has scheduled. Recomputing at record time ``at`` ends (or reschedules) the live
segments that are no longer wanted and starts the new ones; stored history — segments already
over at ``at`` — is never touched, which is what makes ``known_at`` reads exact. A segment born
and ended at the same record time was never visible and is dropped rather than kept.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Sequence

from ...core.temporal import Assertion, Segment, View, timeline

__all__ = ["Recomputed", "Seg", "recompute", "seg_id"]


@dataclass(frozen=True)
class Seg:
    """One ``HOLDS``/``RELATED`` segment: a stretch of one fact's valid time, as known from
    ``recorded_at`` until ``superseded_at`` (None: still current)."""

    seg: str
    fact: str
    valid_from: datetime
    valid_to: datetime | None
    conflict: bool
    recorded_at: datetime
    superseded_at: datetime | None = None
    stored: bool = False  # already in the database before this unit of work
    expires_at: datetime | None = None

    def key(self) -> tuple[Any, ...]:
        return (self.fact, self.valid_from, self.valid_to, self.conflict)

    @property
    def gone(self) -> bool:
        """Ended at or before it began: never visible, so not kept."""
        return self.superseded_at is not None and self.superseded_at <= self.recorded_at


@dataclass
class Recomputed:
    """The outcome of one recomputation: the slot's live segments from now on, the existing
    segments whose end in record time changed (new values, in the order they changed), and the
    segments that start."""

    live: list[Seg] = field(default_factory=list)
    ended: list[Seg] = field(default_factory=list)
    started: list[Seg] = field(default_factory=list)


def seg_id(fact: str, valid_from: datetime, valid_to: datetime | None, conflict: bool, at: datetime) -> str:
    """A segment's id from its content, so incremental writes and any batching of a replay agree."""
    text = f"{fact}|{valid_from.isoformat()}|{valid_to.isoformat() if valid_to else ''}|{conflict}|{at.isoformat()}"
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


# A stretch of the recomputed timeline: (its segment, the record time it starts, when it ends).
_Run = tuple[Segment, datetime, datetime | None]


def _runs(assertions: Sequence[Assertion], at: datetime, subject: str, many: bool) -> dict[tuple[Any, ...], _Run]:
    """The timeline as known at ``at`` and again at each later ``expires_at`` of the slot (expiry
    is part of the timeline, docs/design.md §5), as runs keyed by (segment key, start)."""
    expiries = {a.expires_at for a in assertions if a.expires_at is not None and a.expires_at > at}
    runs: list[list[Any]] = []  # [segment of the timeline, from, until]
    running: dict[tuple[Any, ...], list[Any]] = {}
    for tau in [at] + sorted(expiries):
        wanted = {x.key(): x for x in timeline(assertions, View(known_at=tau), subject, many=many)}
        for key in [k for k in running if k not in wanted]:
            running.pop(key)[2] = tau
        for key, x in wanted.items():
            if key not in running:
                running[key] = [x, tau, None]
                runs.append(running[key])
    return {(r[0].key(), r[1]): (r[0], r[1], r[2]) for r in runs}


def recompute(assertions: Sequence[Assertion], live: Sequence[Seg], at: datetime, subject: str,
              many: bool) -> Recomputed:
    """Recompute a slot's timeline as known at ``at`` and from then on, against its live segments.

    A live segment still wanted from the same start keeps going (its scheduled end may move); one
    no longer wanted ends at ``at`` (or, if it had not begun yet, at its own start: it is dropped).
    A segment that an expiry ends or starts carries that record time now, so reads agree whether
    or not a sweeper ever ran, and a later event only reschedules what lies after its own record
    time. ``live`` is not changed: changed segments come back as new values.
    """
    desired = _runs(assertions, at, subject, many)
    out = Recomputed()
    for seg in live:
        if seg.superseded_at is not None and seg.superseded_at <= at:
            continue  # already over in record time: history, never touched again
        run = desired.pop((seg.key(), max(seg.recorded_at, at)), None)
        if run is not None and (seg.recorded_at <= at or run[1] == seg.recorded_at):
            seg = _end(seg, run[2], out)
            out.live.append(seg)
        else:  # no longer wanted: end it now (a segment not yet begun is dropped)
            _end(seg, max(at, seg.recorded_at), out)
    expiry = {a.uid: a.expires_at for a in assertions}
    for (_key, start), (x, _start, until) in sorted(desired.items(), key=lambda kv: kv[0][1]):
        new = Seg(seg=seg_id(x.fact, x.valid_from, x.valid_to, x.conflict, start), fact=x.fact,
                  valid_from=x.valid_from, valid_to=x.valid_to, conflict=x.conflict, recorded_at=start,
                  superseded_at=until, expires_at=expiry.get(x.fact))
        out.live.append(new)
        out.started.append(new)
    return out


def _end(seg: Seg, until: datetime | None, out: Recomputed) -> Seg:
    """The segment with a new end in record time (noted in ``out.ended`` if it changed)."""
    if until == seg.superseded_at:
        return seg
    ended = replace(seg, superseded_at=until)
    out.ended.append(ended)
    return ended
