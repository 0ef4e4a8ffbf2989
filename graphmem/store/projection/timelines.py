"""Deferred timeline recomputation: the slots an event changed, recomputed (:mod:`.segments`) as
known at that event's record time, with the difference handed to the write buffer.

Segments born and ended at one record time are never visible, so several events on one slot at
the same record time (a bulk import) need one recomputation, not one each: the work waits until
the record time moves on or the unit of work flushes.
"""

from __future__ import annotations

from datetime import datetime

from .buffer import WriteBuffer
from .segments import recompute
from .slots import Slot, SlotCache, SlotKey

__all__ = ["Timelines"]


class Timelines:
    """The slots waiting for recomputation, all as of one record time."""

    def __init__(self, cache: SlotCache, buffer: WriteBuffer) -> None:
        self.cache, self.buffer = cache, buffer
        self.dirty: dict[SlotKey, Slot] = {}
        self.dirty_at: datetime | None = None

    def refresh(self, slot: Slot, at: datetime) -> None:
        """Mark the slot's timeline for recomputation as known at ``at`` (settling what waits for
        an earlier record time first)."""
        self.buffer.touched.add((slot.key[0], slot.key[1]))
        if self.dirty and self.dirty_at != at:
            self.settle()
        self.dirty[slot.key] = slot
        self.dirty_at = at

    def settle(self) -> None:
        """Recompute every waiting slot now."""
        at = self.dirty_at
        if at is not None:
            for slot in self.dirty.values():
                self._recompute(slot, at)
        self.dirty.clear()

    def _recompute(self, slot: Slot, at: datetime) -> None:
        subject, topic, _env = slot.key
        many = self.cache.topics.get(topic, "one") == "many"
        change = recompute(slot.assertions, slot.live, at, subject, many)
        self.buffer.segments_ended(slot.key, change.ended)
        self.buffer.segments_started(slot.key, change.started)
        slot.live = change.live
