"""Transcripts: many messages at once (``mem.ingest_bulk``, ``graphmem import FILE.jsonl``).

A transcript row is ``{"id", "speaker", "text", "at"?, "session"?, "about"?, "kind"?}`` — the
arguments of ``mem.ingest`` — one JSON object a line. Every row becomes a ``message`` event: the
extractor draws what it means (spaCy parses each batch in one pass), the batch is written in one
transaction through the bulk path, and the new text is embedded for recall's vector leg.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Iterable

from ..core.errors import ValidationError
from ..core.answers import WriteResult
from .ops import Plan, apply_bulk
from .writes import Prepare
from .projection import Expander

__all__ = ["ALIAS_TOPIC", "alias_events", "ingest_bulk", "is_transcript_row", "message_event"]

ALIAS_TOPIC = "alias"
_FIELDS = {"id", "speaker", "text", "at", "session", "about", "kind"}


def is_transcript_row(row: Any) -> bool:
    """A transcript row (no ``op``, a speaker and a text), as opposed to a FORMAT.md event."""
    return isinstance(row, dict) and "op" not in row and "speaker" in row and "text" in row


def message_event(row: dict[str, Any], now: datetime) -> dict[str, Any]:
    """A transcript row as a ``message`` event (``at`` defaults to now); unknown keys are refused."""
    if not isinstance(row, dict):
        raise ValidationError("a transcript message must be an object with id, speaker and text")
    extra = set(row) - _FIELDS - {"op"}
    if extra:
        raise ValidationError(f"unknown transcript field(s): {', '.join(sorted(extra))}")
    return {**{k: v for k, v in row.items() if v is not None}, "op": "message", "at": row.get("at") or now}


def ingest_bulk(tenant: str, messages: Iterable[dict[str, Any]], clock: Callable[[], datetime],
                expand: Expander, prepare: Prepare, embedder: Any, batch_size: int,
                progress: Callable[[int], None] | None, actor: str | None = None) -> Plan[list[WriteResult]]:
    now = clock()
    events = []
    for i, m in enumerate(messages):
        try:
            events.append(message_event(m, now))
        except ValidationError as e:
            raise ValidationError(f"message {i}: {e}") from e
    results = yield from apply_bulk(tenant, events, clock, expand, batch_size, progress, actor, prepare)
    if embedder is not None:
        from ..recall.vectors import embed_pending, ensure_vector_index
        yield from ensure_vector_index(tenant, embedder.dimensions)
        yield from embed_pending(tenant, embedder, rounds=1_000_000)  # pages of EMBED_PAGE
    return results


def alias_events(subject: str, alias: str, fields: dict[str, Any]) -> list[dict[str, Any]]:
    """Declare the many-valued ``alias`` topic and assert one more name for ``subject``."""
    return [{"op": "topic", "name": ALIAS_TOPIC, "cardinality": "many"},
            {"op": "set", "subject": subject, "topic": ALIAS_TOPIC, "value": alias, **fields}]
