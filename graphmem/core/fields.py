"""The checked field types every model of graphmem shares: times, identifiers, values, texts.

An event (:mod:`graphmem.core.events`) and a read's keyword arguments go through the same rules,
so they live apart from both: a time is ISO 8601 made aware UTC between :data:`MIN_TIME` and
:data:`MAX_TIME`, an identifier a non-empty string of at most :data:`MAX_ID` characters, a text valid
UTF-8 with no NUL byte, a free-form JSON value (a checkpoint's state, a playbook's detail, a claim)
finite, clean text and at most :data:`MAX_DEPTH` levels deep. Anything else raises
:class:`graphmem.core.errors.ValidationError` (or, inside a model, a ``ValueError`` pydantic reports).

Why bounds on times and depth: Python's datetimes end at years 1 and 9999, and the temporal rules
step an instant back by a microsecond (the value standing *before* a change point) or forward by a
TTL; a year-0001 or year-9999 time, or a TTL of millennia, would overflow *after* validation, deep
inside a write, as a bare ``OverflowError``. Deep JSON likewise fails in the encoder with a
``RecursionError``. Refusing both at the door keeps the promise that bad input is a typed error
that writes nothing (docs/governance.md, "Hardening").
"""

from __future__ import annotations

import math
from datetime import date, datetime, timezone
from typing import Annotated, Any, Literal, TypeVar

import pydantic
from pydantic import BaseModel, model_validator

from .errors import TemporalError, ValidationError

__all__ = ["MAX_DEPTH", "MAX_ID", "MAX_TEXT", "MAX_TIME", "MAX_TTL_SECONDS", "MIN_TIME", "Authority", "Ident",
           "JsonObject", "SourceKind", "Time", "Value", "check_ids", "check_json", "clean_text", "exactly_one",
           "need_after", "need_one", "need_session", "parse_time", "text_field"]

Authority = Literal["L0", "L1", "L2"]
SourceKind = Literal["message", "email", "tool", "document", "import"]
MAX_TEXT = 100_000  # characters of one source or message text; documented in README
MAX_ID = 200  # characters of an id, subject, topic, ref, env or session
MIN_TIME = datetime(2, 1, 1, tzinfo=timezone.utc)  # earliest time accepted (inclusive)
MAX_TIME = datetime(9900, 1, 1, tzinfo=timezone.utc)  # times are before this; leaves room for a TTL
MAX_TTL_SECONDS = 100 * 366 * 86_400  # a topic's TTL: at most about a century
MAX_DEPTH = 64  # nesting of a free-form JSON value (checkpoint state, playbook detail, claim)

M = TypeVar("M", bound=BaseModel)


def parse_time(value: Any) -> datetime:
    """ISO 8601 to an aware UTC datetime. A date alone means midnight UTC (docs/format.md)."""
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, date):
        dt = datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        text = value.strip()
        if text.endswith("Z") or text.endswith("z"):
            text = text[:-1] + "+00:00"
        try:
            dt = datetime.fromisoformat(text)
        except ValueError as e:
            raise ValidationError(f"not an ISO 8601 time: {value!r}") from e
    else:
        raise ValidationError(f"not a time: {value!r}")
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    try:
        dt = dt.astimezone(timezone.utc)
    except OverflowError:  # 0001-01-01T00:00+01:00 is in year 0 in UTC
        dt = MIN_TIME.replace(year=1)
    if not MIN_TIME <= dt < MAX_TIME:
        raise ValidationError(f"time {value!s} is out of range: graphmem keeps times from "
                              f"{MIN_TIME.date().isoformat()} to before {MAX_TIME.date().isoformat()} (UTC)")
    return dt


def clean_text(value: str, what: str, limit: int) -> str:
    """``value`` if it is valid UTF-8 with no NUL byte and at most ``limit`` characters."""
    if "\x00" in value:
        raise ValueError(f"{what} contains a NUL byte")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:  # lone surrogates: not valid UTF-8
        raise ValueError(f"{what} is not valid UTF-8") from e
    if len(value) > limit:
        raise ValueError(f"{what} is longer than {limit} characters")
    return value


def check_json(value: Any, what: str, also: tuple[type, ...] = ()) -> None:
    """Raise :class:`ValidationError` unless ``value`` is plain JSON graphmem can store and read
    back: objects with string keys, lists, strings (valid UTF-8, no NUL, each at most
    :data:`MAX_TEXT` characters), finite numbers, booleans and null, at most :data:`MAX_DEPTH`
    levels deep (``also``: further types let through as they are, such as the datetimes of an
    event given as a dict). Walked without recursion, so a hostile depth cannot exhaust the stack."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ValidationError(f"{what} is nested more than {MAX_DEPTH} levels deep")
        if isinstance(item, dict):
            for key, sub in item.items():
                if not isinstance(key, str):
                    raise ValidationError(f"{what} has a key that is not a string: {key!r}")
                _clean(key, what)
                stack.append((sub, depth + 1))
        elif isinstance(item, (list, tuple)):
            stack.extend((sub, depth + 1) for sub in item)
        elif isinstance(item, str):
            _clean(item, what)
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise ValidationError(f"{what} holds {item!r}, which JSON cannot carry; use a finite number or a string")
        elif item is not None and not isinstance(item, (bool, int, *also)):
            raise ValidationError(f"{what} holds a {type(item).__name__}; only JSON values are kept")


def _clean(text: str, what: str) -> None:
    try:
        clean_text(text, f"a string in {what}", MAX_TEXT)
    except ValueError as e:
        raise ValidationError(str(e)) from e


def _json_object(v: Any) -> Any:
    if isinstance(v, dict):
        try:
            check_json(v, "the object")
        except ValidationError as e:
            raise ValueError(str(e)) from e
    return v


JsonObject = Annotated[dict[str, Any], pydantic.BeforeValidator(_json_object)]


def text_field(what: str, limit: int, *, strip: bool = False) -> Any:
    """A text field's validator (:func:`clean_text`, then stripped if ``strip``): ``Annotated[str, text_field(...)]``."""
    def check(v: str) -> str:
        text = clean_text(v, what, limit)
        return text.strip() if strip else text
    return pydantic.BeforeValidator(check)


Time = Annotated[datetime, pydantic.BeforeValidator(parse_time)]


def _ident(v: Any) -> str:
    if not isinstance(v, str):
        raise ValueError("must be a string")
    text: str = clean_text(v, "identifier", MAX_ID).strip()
    if not text:
        raise ValueError("must not be empty")
    return text


Ident = Annotated[str, pydantic.BeforeValidator(_ident)]


def check_ids(**values: Any) -> None:
    """Keyword arguments of a read (subject, topic, env…) checked like the events' identifiers:
    each that is given must pass :data:`Ident`'s rules, or :class:`ValidationError` names it."""
    for key, value in values.items():
        if value is None:
            continue
        try:
            _ident(value)
        except ValueError as e:
            raise ValidationError(f"{key} {e} (a non-empty string of at most {MAX_ID} characters)") from e


def _value(v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, (str, int, float)):
        raise ValueError("a value is a string or a number")
    return clean_text(str(v), "value", MAX_TEXT)


Value = Annotated[str, pydantic.BeforeValidator(_value)]


def need_one(model: BaseModel, first: str, second: str, message: str) -> None:
    """Raise ``ValueError(message)`` unless exactly one of the two fields is given."""
    if (getattr(model, first) is None) == (getattr(model, second) is None):
        raise ValueError(message)


def exactly_one(first: str, second: str, message: str) -> Any:
    """A model's after-validator: exactly one of two fields is given (else ``message``).
    In a class body: ``_one = exactly_one("ref", "fact", "...")``."""
    def check(self: M) -> M:
        need_one(self, first, second, message)
        return self
    return model_validator(mode="after")(check)


def need_after(model: BaseModel, start: str, end: str) -> None:
    """Raise :class:`TemporalError` when both times are given and ``end`` is not after ``start``."""
    first, last = getattr(model, start), getattr(model, end)
    if first is not None and last is not None and last <= first:
        raise TemporalError(f"{end} {last.isoformat()} is not after {start} {first.isoformat()}")


def need_session(model: BaseModel) -> None:
    """Authority L0 is one task's: an event that claims it names the task's ``session``."""
    if getattr(model, "authority") == "L0" and not getattr(model, "session"):
        raise ValueError("authority L0 belongs to one task: give its 'session'")
