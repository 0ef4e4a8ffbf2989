"""A trip told by a span of days right after the place (issue #43, item 4): "in Boston Monday to
Wednesday", "I'm in Lisbon from the 3rd to the 6th"; "staying in <city>" is a city, not a lodging.
Sentences of our own, with near-misses."""

from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any

import pytest

from graphmem.core.models import MessageEvent
from graphmem.extract import RuleExtractor
from graphmem.extract.dates import find_dates

# Tuesday 10 March 2026.
AT = datetime(2026, 3, 10, 9, tzinfo=timezone.utc)



def _sets(ex: RuleExtractor, text: str) -> list[dict[str, Any]]:
    m = MessageEvent(op="message", id="m1", at=AT, speaker="ana", text=text)
    return [e for e in ex.extract(m, []) if e["op"] == "set"]


@pytest.mark.parametrize("text,first,last", [
    ("Monday to Wednesday", date(2026, 3, 16), date(2026, 3, 18)),
    ("Thursday to Sunday", date(2026, 3, 12), date(2026, 3, 15)),
    ("Friday-Monday", date(2026, 3, 13), date(2026, 3, 16)),
    ("next Wednesday through Friday", date(2026, 3, 11), date(2026, 3, 13)),  # "next" as the weekday alone reads it
])
def test_a_weekday_range_ends_on_the_first_such_day_after_its_start(text: str, first: date, last: date) -> None:
    (span,) = find_dates(text, AT)
    assert (span.start.date(), span.end.date() if span.end else None) == (first, date.fromordinal(last.toordinal() + 1))


@pytest.mark.parametrize("text,city", [
    ("in Boston Monday to Wednesday for the handover", "Boston"),
    ("I'm in Madrid Thursday to Sunday, ping me on mobile", "Madrid"),
    ("we're in Berlin from the 16th to the 18th", "Berlin"),
    ("out in Paris Mar 16-18 for a customer workshop", "Paris"),
])
def test_a_stay_with_a_span_of_days_is_a_bounded_trip(ex: RuleExtractor, text: str, city: str) -> None:
    got = [e for e in _sets(ex, text) if e["topic"] == "trip_city"]
    assert [e["value"] for e in got] == [city]
    assert got[0].get("valid_from") and got[0].get("valid_to")


@pytest.mark.parametrize("text", [
    "my sister is in Rome Monday to Wednesday",        # someone else
    "in meetings Monday to Wednesday",                 # not a place
    "in Porto Monday to Wednesday, then Faro from the 20th",  # an itinerary: one trip per sentence, so nothing
])
def test_no_trip_for_someone_else_or_an_itinerary(ex: RuleExtractor, text: str) -> None:
    assert [e for e in _sets(ex, text) if e["topic"] == "trip_city"] == []


def test_staying_in_a_city_is_no_lodging(ex: RuleExtractor) -> None:
    assert [e for e in _sets(ex, "staying in Boston from Thursday to Sunday") if e["topic"] == "trip_lodging"] == []
    assert [e["value"] for e in _sets(ex, "staying in the Grand Budapest Hotel till Friday")
            if e["topic"] == "trip_lodging"] == ["Grand Budapest Hotel"]
