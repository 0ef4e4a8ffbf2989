"""What an event's handler is given: :class:`Work`, the unit of work's state it may read and
change (the slot cache, the write buffer, the pending recomputations, the extractor), and
:class:`Current`, the event being applied.

The current event is a value passed to every handler rather than an optional field of the unit,
so a handler never runs without one and the type checker knows it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .buffer import WriteBuffer
from .slots import Slot, SlotCache
from .timelines import Timelines
from .values import Expander, RunQuery

__all__ = ["Current", "Work"]


@dataclass
class Current:
    """The event being applied: its sequence number, record time, and what it produced."""

    seq: int
    at: datetime
    facts: list[str] = field(default_factory=list)  # uids of the facts it made or changed
    drawn: list[dict[str, Any]] | None = None  # what the extractor drew from a message
    n_facts: int = 0
    n_episodes: int = 0


@dataclass
class Work:
    """One unit of work's state, shared by the handlers of all its events."""

    query: RunQuery
    cache: SlotCache
    buffer: WriteBuffer
    timelines: Timelines
    expand: Expander | None = None
    # "fact/recent" rows by the subjects asked for: an extractor's context (see handlers._recent)
    recent_rows: dict[tuple[str, ...], list[dict[str, Any]]] = field(default_factory=dict)

    def refresh(self, slot: Slot, cur: Current) -> None:
        """The slot changed: recompute its timeline as known at the current event's record time."""
        self.timelines.refresh(slot, cur.at)
