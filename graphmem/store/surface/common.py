"""What the public operations of every family share: the :data:`When` of their time arguments and
the event dict the write helpers build (:mod:`graphmem.store.surface`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

__all__ = ["When", "event_dict"]

When = datetime | str
"""A time: an aware datetime or ISO 8601 text (a date alone is midnight UTC)."""


def event_dict(op: str, **fields: Any) -> dict[str, Any]:
    """A docs/format.md event dict of the fields given (None means not given: the model's default)."""
    return {"op": op, **{k: v for k, v in fields.items() if v is not None}}
