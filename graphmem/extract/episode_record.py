"""What an episode is — who did what, where and when — and the ledger event it becomes.

Apart from the rules that find episodes (:mod:`.episodes` and the ``episode_*`` modules) so each
of them can build one without importing the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = ["Episode", "episode_event"]


@dataclass(frozen=True)
class Episode:
    who: str
    what: str
    where: str | None
    start: datetime | None  # None: before ``end``, the text does not say when
    end: datetime  # exclusive
    evidence: str  # "[a:b] sentence"
    planned: bool = False  # ahead of the message ("I'm going camping next month"): not done yet


def episode_event(e: "Episode") -> dict[str, Any]:
    """The ledger's ``episode`` event for a drawn episode (its source is the message)."""
    out: dict[str, Any] = {"op": "episode", "who": e.who, "what": e.what, "end": e.end.isoformat(),
                           "evidence": e.evidence}
    if e.start is not None:
        out["start"] = e.start.isoformat()
    if e.planned:
        out["planned"] = True
    if e.where:
        out["where"] = e.where
    return out

