"""What an assertion is and who sees it: the record the rules of docs/design.md §5 read (a ``Fact`` as
the projection stores it), the view a question is asked from, and rule 1 (visibility). No I/O.

:mod:`graphmem.core.temporal` decides among the assertions a view sees; it re-exports these names.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

__all__ = ["EPSILON", "LAYERS", "Assertion", "View", "visible"]

LAYERS = ("L0", "L1", "L2")
EPSILON = timedelta(microseconds=1)


@dataclass(frozen=True)
class Assertion:
    """One ``set`` or ``revoke`` as the projection stores it (a ``Fact`` node)."""

    uid: str
    seq: int
    kind: Literal["set", "revoke"]
    value: str | None  # the literal or entity id; for a revoke, the value revoked (None: all)
    valid_from: datetime
    recorded_at: datetime
    valid_to: datetime | None = None
    authority: str = "L1"
    session: str | None = None
    status: str = "confirmed"  # as asserted; confirmation is a later record-time event
    confirmed_at: datetime | None = None
    rejected_at: datetime | None = None
    retracted_at: datetime | None = None
    author: str | None = None
    said_at: datetime | None = None  # when it was said: the source's time, else the record time
    quoted: bool = False
    source: str | None = None
    is_entity: bool = False
    expires_at: datetime | None = None  # from this record time on the fact no longer takes part
    promoted_at: datetime | None = None  # the subject confirmed it: an L1 statement from then on
    withheld_at: datetime | None = None  # an erase request holds it back from then on (reversible)
    restored_at: datetime | None = None  # ... until the request was cancelled

    def as_known_at(self, k: datetime) -> "Assertion":
        """The assertion as the rules see it at record time ``k``: an L2 candidate that its
        subject confirmed is an explicit L1 statement from the confirmation on (docs/design.md §5)."""
        if self.promoted_at is not None and self.promoted_at <= k and self.authority != "L1":
            return replace(self, authority="L1")
        return self

    @property
    def is_exception(self) -> bool:
        return self.kind == "set" and self.valid_to is not None

    @property
    def said(self) -> datetime:
        return self.said_at or self.recorded_at

    def speaks_at(self, t: datetime) -> bool:
        """Does this assertion say anything about instant ``t``?"""
        if self.valid_from > t:
            return False
        return not self.is_exception or t < self.valid_to  # type: ignore[operator]


@dataclass(frozen=True)
class View:
    """Who is asking and what they accept: the record time, an L0 session, candidates."""

    known_at: datetime
    session: str | None = None
    include_candidates: bool = False


def visible(a: Assertion, view: View) -> bool:
    """Rule 1: does ``a`` take part in answers for this view?"""
    k = view.known_at
    if a.recorded_at > k:
        return False
    if (a.retracted_at is not None and a.retracted_at <= k) or (a.rejected_at is not None and a.rejected_at <= k):
        return False
    if a.expires_at is not None and a.expires_at <= k:
        return False
    if a.withheld_at is not None and a.withheld_at <= k and not (a.restored_at is not None and a.restored_at <= k):
        return False
    if a.authority == "L0" and a.session != view.session:
        return False
    candidate = a.status == "candidate" and not (a.confirmed_at is not None and a.confirmed_at <= k)
    return view.include_candidates or not candidate
