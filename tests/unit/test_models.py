"""Malformed events are refused with a typed error before anything is written."""

from __future__ import annotations

import pytest

from graphmem.core.errors import TemporalError, ValidationError
from graphmem.core.models import parse_event, parse_time


@pytest.mark.parametrize("event, error", [
    ({"op": "frobnicate"}, "unknown op"),
    ({"op": "set", "subject": "x", "topic": "port"}, "exactly one of"),
    ({"op": "set", "subject": "", "topic": "port", "value": "1"}, "must not be empty"),
    ({"op": "set", "subject": "x", "topic": "port", "value": "1", "authority": "L9"}, "authority"),
    ({"op": "set", "subject": "x", "topic": "port", "value": "1", "authority": "L0"}, "session"),
    ({"op": "set", "subject": "x", "topic": "port", "value": "1", "bogus": 1}, "bogus"),
    ({"op": "set", "subject": "x\x00", "topic": "port", "value": "1"}, "NUL"),
    ({"op": "set", "subject": "x", "topic": "port", "value": "\udc80"}, "UTF-8"),
    ({"op": "set", "subject": "x", "topic": "port", "value": "1", "valid_from": "not a date"}, "ISO 8601"),
    ({"op": "source", "id": "s", "kind": "fax", "at": "2026-01-01"}, "kind"),
    ({"op": "source", "id": "s", "kind": "email", "at": "2026-01-01", "text": "x" * 100_001}, "longer than"),
    ("not json", "JSON"),
    ([1, 2], "JSON object"),
])
def test_malformed_events_are_refused(event, error):
    with pytest.raises(ValidationError, match=error):
        parse_event(event)


def test_backwards_interval_is_a_temporal_error():
    with pytest.raises(TemporalError):
        parse_event({"op": "set", "subject": "x", "topic": "p", "value": "1",
                     "valid_from": "2026-02-01", "valid_to": "2026-01-01"})


def test_date_alone_is_midnight_utc():
    assert parse_time("2026-09-20").isoformat() == "2026-09-20T00:00:00+00:00"
    assert parse_time("2026-09-20T10:00:00+02:00").isoformat() == "2026-09-20T08:00:00+00:00"


def test_values_are_kept_exactly():
    e = parse_event({"op": "set", "subject": "x", "topic": "port", "value": 8000})
    assert e.value == "8000" and e.valid_from is None and e.env is None
