"""Values at the write path's edges: database rows and wire parameters on one side, the temporal
rules' :class:`~graphmem.core.temporal.Assertion` and aware UTC datetimes on the other.

Kept apart from the unit of work because recall, governance and the working layer read stored
times and facts the same way, and because these conversions have no state of their own.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Callable

from ..queries import Steps
from ...core.temporal import Assertion

if TYPE_CHECKING:  # the events' models cost a read-only CLI call ~20 ms to build
    from ...core.events import MessageEvent

__all__ = ["EPOCH", "Expander", "RunQuery", "event_id", "instant", "plain", "row_to_assertion", "to_datetime", "to_time",
           "wire"]

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
# What the write path asks of an extractor: a message and the recent facts about its people in
# (dicts with PriorFact's fields, newest first), the events it draws out.
Expander = Callable[["MessageEvent", list[Any]], list[Any]]


def to_datetime(value: Any) -> datetime | None:
    """A Neo4j DateTime, ISO text (from ``toString()``) or None as an aware UTC datetime."""
    if value is None:
        return None
    if isinstance(value, str):  # Cypher's toString(): drop a trailing zone name like [Europe/Paris]
        return datetime.fromisoformat(value.split("[", 1)[0]).astimezone(timezone.utc)
    if hasattr(value, "to_native"):
        value = value.to_native()
    native: datetime = value
    return native.astimezone(timezone.utc)


def to_time(value: Any) -> datetime:
    """A time the schema always sets (a fact's ``valid_from``, a record time) as :func:`to_datetime`
    gives it; a missing one is a broken row, not an open end."""
    found = to_datetime(value)
    if found is None:
        raise ValueError("a required time is missing from a stored row")
    return found


def row_to_assertion(row: dict[str, Any]) -> Assertion:
    """A ``Fact`` row (stored, or built by this unit of work) as the temporal rules see it."""
    return Assertion(
        uid=row["uid"], seq=row["seq"], kind=row["kind"], value=row["value"],
        valid_from=to_time(row["valid_from"]), valid_to=to_datetime(row["valid_to"]),
        recorded_at=to_time(row["recorded_at"]),
        authority=row.get("asserted_authority") or row["authority"], session=row["session"], status=row["status"],
        confirmed_at=to_datetime(row["confirmed_at"]), rejected_at=to_datetime(row["rejected_at"]),
        retracted_at=to_datetime(row["retracted_at"]), author=row["author"],
        said_at=to_datetime(row["said_at"]), quoted=bool(row["quoted"]), source=row["source"],
        is_entity=bool(row["is_entity"]), expires_at=to_datetime(row.get("expires_at")),
        promoted_at=to_datetime(row.get("promoted_at")), withheld_at=to_datetime(row.get("withheld_at")),
        restored_at=to_datetime(row.get("restored_at")),
    )


def instant(t: datetime) -> dict[str, int]:
    """``t`` as a query parameter: the map ``{epochSeconds, nanosecond}`` the queries' ``datetime()``
    builds a UTC DateTime from, to the microsecond (a naive ``t`` is UTC, as everywhere in graphmem).

    A DateTime packed by the driver costs the client ~0.1 ms a parameter; ISO text is cheap to pack, but
    the server parses it on every call. The map is cheap both ways: an as-of read took ~10 µs less
    on the server than with two ISO parameters (docs/scaling.md, "What a read costs")."""
    d = (t if t.tzinfo is not None else t.replace(tzinfo=timezone.utc)) - EPOCH
    return {"epochSeconds": d.days * 86_400 + d.seconds, "nanosecond": d.microseconds * 1_000}


def wire(value: Any) -> Any:
    """Times as ISO 8601 text for the write queries (they call datetime() on it).

    The Python driver spends ~100 µs packing one temporal value and ~1 µs packing text, and a
    bulk batch carries several times per fact. (A read's few time parameters go as
    :func:`instant` maps instead, graphmem.store.plans.query_call: nothing to parse. The write
    queries take each time once per row and parse it once even when it repeats, write/facts.)
    """
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: wire(v) for k, v in value.items()}
    if isinstance(value, list):
        return [wire(v) for v in value]
    return value


def event_id(event: Any) -> str | None:
    """The idempotency key an event is remembered by in the ledger (a retried one applies once)."""
    if event.op in ("source", "message"):
        return f"{event.op}:{event.id}"
    ident: str | None = event.id
    return ident


def plain(event: Any) -> dict[str, Any]:
    """An extractor's event as a JSON-ready dict (extractors may return dicts or models)."""
    found: dict[str, Any] = (event.model_dump(mode="json", exclude_none=True) if hasattr(event, "model_dump")
                             else json.loads(json.dumps(event, default=str)))
    return found


# How the write path runs one named query for its tenant: yields the Call, receives the rows.
RunQuery = Callable[..., Steps[list[dict[str, Any]]]]
