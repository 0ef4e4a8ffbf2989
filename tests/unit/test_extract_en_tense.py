"""The tense around a weekday or a bare day of the month picks its side of today (issue #43, item 5):
"On Monday I moved" is the Monday gone, "On Monday I'm moving" the one ahead. Sentences of our own."""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from graphmem.extract.dates import find_dates
from graphmem.extract.en_tense import tense_near

# Thursday 27 November 2025.
REF = datetime(2025, 11, 27, 15, tzinfo=timezone.utc)


def _days(text: str) -> list[date]:
    return [d.start.date() for d in find_dates(text, REF)]


@pytest.mark.parametrize("text", [
    "On Monday I moved to Leeds", "On Monday we finally moved", "I left Acme on Monday",
    "on Monday I got the keys", "We signed the lease on Monday", "On Monday they relocated me to 4B",
])
def test_a_past_verb_puts_a_bare_weekday_behind(text: str) -> None:
    assert _days(text) == [date(2025, 11, 24)]


@pytest.mark.parametrize("text", [
    "On Monday I'm moving to Leeds", "I'll move on Monday", "On Monday I am starting at Hooli",
    "I'm going to move on Monday", "Monday I start at Hooli", "on Monday we're relocating",
])
def test_a_future_or_progressive_puts_a_bare_weekday_ahead(text: str) -> None:
    assert _days(text) == [date(2025, 12, 1)]


@pytest.mark.parametrize("text,day", [
    ("I started at Wise on the 3rd", date(2025, 11, 3)),
    ("I actually started at Wise on the 3rd, not the 1st", date(2025, 11, 3)),
    ("we moved in on the 20th", date(2025, 11, 20)),
    ("on the 20th we got the keys", date(2025, 11, 20)),
    ("starting at Ball Aerospace on the 8th", date(2025, 12, 8)),
    ("the new address kicks in on the 15th", date(2025, 12, 15)),
    ("I'll be at Hooli from the 26th", date(2025, 12, 26)),
    ("the job starts on the 25th", date(2025, 12, 25)),
])
def test_the_tense_picks_the_side_of_a_bare_day_of_the_month(text: str, day: date) -> None:
    assert _days(text)[0] == day


def test_without_a_tense_cue_the_nearer_day_stays() -> None:
    assert _days("See you on the 28th") == [date(2025, 11, 28)]
    assert _days("on the 25th, fine") == [date(2025, 11, 25)]


def test_a_cue_in_another_sentence_or_clause_after_does_not_count() -> None:
    text = "I moved last year. The party is on the 28th"
    span = next(d.span for d in find_dates(text, REF) if d.start.day == 28)
    assert tense_near(text, *span) is None
    assert tense_near("On Monday, we moved", 3, 9) is None  # the clause after ends at the comma
    assert tense_near("On Monday I moved", 3, 9) == "past"
