"""The validation core without a database: whatever it is given, :func:`parse_time`,
:func:`check_json`, :func:`check_tenant` and :func:`parse_event` either accept or raise
``ValidationError`` — never an ``OverflowError``, ``RecursionError``, ``UnicodeEncodeError`` or any
other untyped exception (issue #45, item 7)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.core.errors import ValidationError
from graphmem.core.events import parse_event
from graphmem.core.fields import MAX_DEPTH, MAX_TIME, MIN_TIME, check_json, parse_time
from graphmem.core.scope import check_tenant

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=30)


@settings(max_examples=200)
@given(text=st.text(max_size=40))
def test_parse_time_accepts_or_raises_validation_error(text):
    try:
        t = parse_time(text)
    except ValidationError:
        return
    assert MIN_TIME <= t < MAX_TIME and t.tzinfo is not None
    t - timedelta(microseconds=1)  # the rules' step back never overflows
    t + timedelta(days=36_600)  # nor a century's TTL forward


@pytest.mark.parametrize("when", ["0001-01-01", "0001-01-01T00:00:00+14:00", "0001-12-31", "9999-12-31",
                                  "9900-01-01T00:00:00Z", datetime(1, 1, 1), datetime(9999, 12, 31, tzinfo=timezone.utc)])
def test_times_at_the_ends_of_python_are_refused(when):
    with pytest.raises(ValidationError, match="out of range"):
        parse_time(when)


def test_the_first_and_last_accepted_times():
    assert parse_time("0002-01-01") == MIN_TIME
    assert parse_time("9899-12-31T23:59:59Z") < MAX_TIME


@settings(max_examples=200)
@given(value=json_values)
def test_check_json_accepts_or_raises_validation_error(value):
    try:
        check_json(value, "x")
    except ValidationError:
        return
    stack = [value]
    while stack:  # what was accepted is finite, NUL-free JSON
        v = stack.pop()
        if isinstance(v, float):
            assert math.isfinite(v)
        elif isinstance(v, str):
            assert "\x00" not in v
            v.encode("utf-8")
        elif isinstance(v, dict):
            stack += list(v.values()) + list(v.keys())
        elif isinstance(v, list):
            stack += v


def test_check_json_depth_is_walked_without_recursion():
    deep: object = 1
    for _ in range(200_000):  # far past Python's recursion limit
        deep = [deep]
    with pytest.raises(ValidationError, match=f"more than {MAX_DEPTH} levels"):
        check_json(deep, "x")


@settings(max_examples=200)
@given(tenant=st.one_of(st.text(max_size=260), st.integers(), st.none()))
def test_check_tenant_accepts_or_raises_validation_error(tenant):
    try:
        assert check_tenant(tenant) == tenant
    except ValidationError:
        return
    assert tenant.strip() and len(tenant) <= 200 and "\x00" not in tenant
    tenant.encode("utf-8")


@settings(max_examples=200)
@given(event=st.dictionaries(st.sampled_from(["op", "subject", "topic", "value", "valid_from", "detail", "ttl_seconds",
                                             "name", "action", "target", "session", "claims", "source", "quotes"]),
                             st.one_of(st.sampled_from(["set", "topic", "playbook", "working", "quote", "draft"]),
                                       json_values, st.integers(), st.text(max_size=12)), max_size=8))
def test_parse_event_accepts_or_raises_validation_error(event):
    try:
        parse_event(event)
    except ValidationError:
        pass
