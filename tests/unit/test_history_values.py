"""docs/format.md's history counting: consecutive repeats merge only when they touch."""

from __future__ import annotations

from graphmem.core.models import HistoryEntry, parse_time
from graphmem.store.ops import history_values


def entry(value: str, start: str, end: str | None = None, **kw) -> HistoryEntry:
    return HistoryEntry(value=value, valid_from=parse_time(start), valid_to=parse_time(end) if end else None, **kw)


def test_a_gap_a_lists_a_twice():
    assert history_values([entry("A", "2026-01-01", "2026-02-01"), entry("A", "2026-03-01")]) == ["A", "A"]


def test_touching_repeats_merge():
    assert history_values([entry("A", "2026-01-01", "2026-02-01"), entry("A", "2026-02-01")]) == ["A"]
    assert history_values([entry("A", "2026-01-01", "2026-02-01"), entry("B", "2026-02-01", "2026-03-01"),
                           entry("A", "2026-03-01")]) == ["A", "B", "A"]


def test_expired_entries_are_not_counted():
    assert history_values([entry("A", "2026-01-01", "2026-02-01"), entry("X", "2026-02-01", expired=True),
                           entry("A", "2026-02-01")]) == ["A"]
