"""Transcripts: many messages at once (``mem.add``, ``mem.ingest_bulk``, ``graphmem import FILE.jsonl``).

Two row shapes, one JSON object a line:

* the ecosystem's — ``{"role", "content", "name"?, "id"?, "created_at"?|"timestamp"?, ...}``
  (OpenAI / LangChain chat messages): ``role`` decides who speaks and what the words may become,
  ids are made when absent, unknown fields are ignored — see :mod:`graphmem.extract.roles`;
* graphmem's — ``{"id", "speaker", "text", "at"?, "session"?, "about"?, "kind"?}``, the arguments
  of ``mem.ingest`` — a person's words, unless the speaker is ``assistant``, ``system`` or ``tool``
  (then drawn as a role row of that role is); an unknown field is refused.

Every row becomes a ``message`` event: the extractor draws what it means (spaCy parses each batch
in one pass), the batch is written in one transaction through the bulk path, and the new text is
embedded for recall's vector leg. A refused row names its position (``message 3: …``; the
importer gives the file's line instead).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Iterable

from pydantic import BaseModel, ConfigDict

from ..core.errors import ValidationError
from ..core.answers import WriteResult
from ..extract.roles import is_role_row, role_message
from .ops import Plan, apply_bulk
from .writes import Prepare
from .projection import Expander

__all__ = ["ALIAS_TOPIC", "Added", "add", "alias_events", "ingest_bulk", "is_transcript_row", "message_event",
           "transcript_events"]

ALIAS_TOPIC = "alias"
_FIELDS = {"id", "speaker", "text", "at", "session", "about", "kind"}
# A {speaker, text} row whose speaker is one of these is not a person's words (as a role row's).
NON_PERSON_SPEAKERS = frozenset({"assistant", "system", "tool"})


def is_transcript_row(row: Any) -> bool:
    """A transcript row (no ``op``; a ``role``, or a speaker and a text), as opposed to a FORMAT.md event."""
    return isinstance(row, dict) and "op" not in row and ("role" in row or ("speaker" in row and "text" in row))


def message_event(row: dict[str, Any], now: datetime, position: int = 0, *, user: str | None = None,
                  session: str | None = None, at: Any = None) -> dict[str, Any]:
    """A transcript row as a ``message`` event (``at`` defaults to the row's time, else ``at``, else
    now). A role row follows graphmem.extract.roles (``position`` is part of a made id); a
    ``{speaker, text}`` row's unknown keys are refused."""
    if not isinstance(row, dict):
        raise ValidationError("a transcript message must be an object with role and content "
                              "(or id, speaker and text)")
    if is_role_row(row):
        event = role_message(row, position, user=user, session=session, at=at)
        return {**event, "at": event.get("at") or now}
    extra = set(row) - _FIELDS - {"op"}
    if extra:
        raise ValidationError(f"unknown transcript field(s): {', '.join(sorted(extra))} "
                              f"(a row has id, speaker, text, at, session, about, kind — or role and content)")
    out = {**{k: v for k, v in row.items() if v is not None}, "op": "message", "at": row.get("at") or at or now}
    if isinstance(row.get("speaker"), str) and row["speaker"].strip().lower() in NON_PERSON_SPEAKERS:
        out["drawn_as"] = "inferred"  # a row spoken by "assistant" is the model's, whatever its shape
    if session is not None:
        out.setdefault("session", session)
    return out


def transcript_events(messages: Iterable[dict[str, Any]], now: datetime, *, user: str | None = None,
                      session: str | None = None, at: Any = None) -> list[dict[str, Any]]:
    """Every row as a ``message`` event, all checked before any is written; a refused row raises
    with its position."""
    events = []
    for i, m in enumerate(messages):
        try:
            events.append(message_event(m, now, i, user=user, session=session, at=at))
        except ValidationError as e:
            raise ValidationError(f"message {i}: {e}") from e
    return events


def ingest_bulk(tenant: str, messages: Iterable[dict[str, Any]], clock: Callable[[], datetime],
                expand: Expander, prepare: Prepare, embedder: Any, batch_size: int,
                progress: Callable[[int], None] | None, actor: str | None = None) -> Plan[list[WriteResult]]:
    events = transcript_events(messages, clock())
    return (yield from _load(tenant, events, clock, expand, prepare, embedder, batch_size, progress, actor))


def _load(tenant: str, events: list[dict[str, Any]], clock: Callable[[], datetime], expand: Expander,
          prepare: Prepare, embedder: Any, batch_size: int, progress: Callable[[int], None] | None,
          actor: str | None) -> Plan[list[WriteResult]]:
    results = yield from apply_bulk(tenant, events, clock, expand, batch_size, progress, actor, prepare)
    if embedder is not None:
        from ..recall.vectors import embed_pending, ensure_vector_index
        yield from ensure_vector_index(tenant, embedder.dimensions)
        yield from embed_pending(tenant, embedder, rounds=1_000_000)  # pages of EMBED_PAGE
    return results


class Added(BaseModel):
    """One row of ``mem.add``: the message id (given, or made), who spoke, and what was drawn."""

    model_config = ConfigDict(frozen=True)

    id: str
    speaker: str
    drawn_as: str
    seq: int
    facts: list[str]
    duplicate: bool


def add(tenant: str, messages: Iterable[dict[str, Any]], clock: Callable[[], datetime], expand: Expander,
        prepare: Prepare, embedder: Any, batch_size: int, actor: str | None, *, user: str | None,
        session: str | None, at: Any) -> Plan[list[Added]]:
    """``mem.add``: rows of either shape, defaults for the user's name, the session and the time."""
    events = transcript_events(messages, clock(), user=user, session=session, at=at)
    results = yield from _load(tenant, events, clock, expand, prepare, embedder, batch_size, None, actor)
    return [Added(id=e["id"], speaker=e["speaker"], drawn_as=e.get("drawn_as", "stated"), seq=r.seq,
                  facts=list(r.facts), duplicate=r.duplicate) for e, r in zip(events, results)]


def alias_events(subject: str, alias: str, fields: dict[str, Any]) -> list[dict[str, Any]]:
    """Declare the many-valued ``alias`` topic and assert one more name for ``subject``."""
    return [{"op": "topic", "name": ALIAS_TOPIC, "cardinality": "many"},
            {"op": "set", "subject": subject, "topic": ALIAS_TOPIC, "value": alias, **fields}]
