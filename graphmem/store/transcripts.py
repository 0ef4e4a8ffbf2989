"""Transcripts: many messages at once (``mem.add``, ``mem.ingest_bulk``, ``graphmem import FILE.jsonl``).

Two row shapes, one JSON object a line (docs/transcripts.md):

* the ecosystem's — ``{"role", "content", "name"?, "id"?, "created_at"?|"timestamp"?, ...}``
  (OpenAI / LangChain chat messages): ``role`` one of ``user``, ``assistant``, ``system``,
  ``tool``; ``content`` a string or a list of parts of which the ``{"type": "text", "text": …}``
  ones are read. The role decides who speaks (docs/design.md §5): a ``user`` row is the words of its
  ``name``, else of the ``user`` the caller names, else ``"user"`` (L1); an ``assistant``,
  ``system`` or ``tool`` row is the words of its ``name``, else the role — kept as a message (a
  recall item), drawn with ``drawn_as="inferred"`` (graphmem.extract.roles: at most L2
  candidates, never about the speaker itself); a ``tool`` row is a source of kind ``tool``.
  Unknown fields are ignored (``tool_calls``, ``refusal``, ``metadata``… say nothing stored), but a
  ``user`` row's ``relayed_by`` names the agent that relayed the user's words (the message's
  ``relayed_by``: answers drawn from it say so).
* graphmem's — ``{"id", "speaker", "text", "at"?, "session"?, "about"?, "kind"?, "relayed_by"?}``, the arguments
  of ``mem.ingest`` — a person's words, unless the speaker is ``assistant``, ``system`` or ``tool``
  (then drawn as a role row of that role is); an unknown field is refused.

Ids. A row without ``id`` gets ``msg-`` + the first 20 hex digits of the SHA-256 of (session,
position, role, text): the same rows added again make the same ids, and an id already in the
ledger is a duplicate that writes nothing — re-adding never doubles a transcript. Two equal rows
at different positions stay two messages.

Every row becomes a ``message`` event: the extractor draws what it means (spaCy parses each batch
in one pass; a non-person's row that names nobody, with no ``about``, draws nothing and is not
parsed at all: :func:`_unparsed_if_nobodys`), the batch is written in one transaction through the
bulk path, and the new text is embedded for recall's vector leg. A refused row names its position (``message 3: …``; the
importer gives the file's line instead).
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Mapping

from pydantic import BaseModel, ConfigDict

from ..core.errors import ValidationError
from ..core.answers import WriteResult
from .ops import Plan, apply_bulk
from .writes import Prepare
from .projection import Expander

__all__ = ["ALIAS_TOPIC", "PERSON_ROLES", "ROLES", "Added", "add", "alias_events", "content_text", "ingest_bulk",
           "is_role_row", "is_transcript_row", "message_event", "role_message", "row_id", "transcript_events"]

ALIAS_TOPIC = "alias"
_FIELDS = {"id", "speaker", "text", "at", "session", "about", "kind", "relayed_by"}
# A {speaker, text} row whose speaker is one of these is not a person's words (as a role row's).
NON_PERSON_SPEAKERS = frozenset({"assistant", "system", "tool"})
ROLES = ("user", "assistant", "system", "tool")
PERSON_ROLES = frozenset({"user"})  # the one role whose words are a person's own


def is_role_row(row: Any) -> bool:
    """A row in the ecosystem's shape (a ``role``, no ``op``), as opposed to a docs/format.md event or
    a ``{speaker, text}`` transcript row."""
    return isinstance(row, Mapping) and "op" not in row and "role" in row


def content_text(content: Any) -> str:
    """The words of a row's ``content``: a string as it is, a list of parts joined by newlines
    (only ``{"type": "text", "text": …}`` parts, and bare strings, carry words)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for part in content:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, Mapping) and part.get("type") in ("text", "input_text", "output_text") \
                    and isinstance(part.get("text"), str):
                texts.append(part["text"])
        return "\n".join(t for t in texts if t.strip())
    if content is None:
        return ""
    raise ValidationError("'content' must be a string or a list of {\"type\": \"text\", \"text\": ...} parts")


def row_id(session: str | None, position: int, role: str, text: str) -> str:
    """The id a row without one gets: deterministic in (session, position, role, text)."""
    key = "\x1f".join([session or "", str(position), role, text])
    return "msg-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]


def _time(value: Any) -> Any:
    """``created_at`` / ``timestamp``: ISO 8601 text or a datetime as given; a number is Unix seconds
    (OpenAI's ``created_at``)."""
    if isinstance(value, bool):
        raise ValidationError("'created_at' must be an ISO 8601 time or Unix seconds")
    if isinstance(value, (int, float)):
        try:
            return datetime.fromtimestamp(value, tz=timezone.utc)
        except (OverflowError, OSError, ValueError) as e:
            raise ValidationError(f"'created_at' {value!r} is not a time in Unix seconds") from e
    return value


def role_message(row: Mapping[str, Any], position: int, *, user: str | None = None, session: str | None = None,
                 at: Any = None, about: str | None = None) -> dict[str, Any]:
    """One role row as a ``message`` event dict (``at`` may still be None: the caller's clock).

    ``position`` is the row's place in its transcript (0-based), part of a made id; ``user``,
    ``session``, ``at`` and ``about`` are the defaults a row's own ``name``, ``session``,
    ``created_at``/``timestamp`` and ``about`` override."""
    role = row.get("role")
    if role not in ROLES:
        raise ValidationError(f"'role' must be one of {', '.join(ROLES)}, not {role!r}")
    text = content_text(row.get("content"))
    if not text.strip():
        raise ValidationError("'content' has no text")
    name = row.get("name")
    if name is not None and not isinstance(name, str):
        raise ValidationError("'name' must be a string")
    speaker = name or ((user or "user") if role in PERSON_ROLES else role)
    sess = row.get("session", session)
    ident = row.get("id")
    if ident is None:
        ident = row_id(sess if isinstance(sess, str) else None, position, role, text)
    when = next((w for w in (row.get("created_at"), row.get("timestamp"), at) if w is not None), None)
    event: dict[str, Any] = {"op": "message", "id": ident, "speaker": speaker, "text": text,
                             "at": _time(when) if when is not None else None, "session": sess,
                             "about": row.get("about", about)}
    if role in PERSON_ROLES:
        event["relayed_by"] = row.get("relayed_by")
    else:
        event["drawn_as"] = "inferred"
    if role == "tool":
        event["kind"] = "tool"
    return {k: v for k, v in event.items() if v is not None}


def is_transcript_row(row: Any) -> bool:
    """A transcript row (no ``op``; a ``role``, or a speaker and a text), as opposed to a docs/format.md event."""
    return isinstance(row, dict) and "op" not in row and ("role" in row or ("speaker" in row and "text" in row))


def message_event(row: dict[str, Any], now: datetime, position: int = 0, *, user: str | None = None,
                  session: str | None = None, at: Any = None) -> dict[str, Any]:
    """A transcript row as a ``message`` event (``at`` defaults to the row's time, else ``at``, else
    now). A role row follows :func:`role_message` (``position`` is part of a made id); a
    ``{speaker, text}`` row's unknown keys are refused."""
    if not isinstance(row, dict):
        raise ValidationError("a transcript message must be an object with role and content "
                              "(or id, speaker and text)")
    if is_role_row(row):
        event = role_message(row, position, user=user, session=session, at=at)
        return _unparsed_if_nobodys({**event, "at": event.get("at") or now})
    extra = set(row) - _FIELDS - {"op"}
    if extra:
        raise ValidationError(f"unknown transcript field(s): {', '.join(sorted(extra))} "
                              f"(a row has id, speaker, text, at, session, about, kind, relayed_by — or role and content)")
    out = {**{k: v for k, v in row.items() if v is not None}, "op": "message", "at": row.get("at") or at or now}
    if isinstance(row.get("speaker"), str) and row["speaker"].strip().lower() in NON_PERSON_SPEAKERS:
        out["drawn_as"] = "inferred"  # a row spoken by "assistant" is the model's, whatever its shape
    if session is not None:
        out.setdefault("session", session)
    return _unparsed_if_nobodys(out)


def _unparsed_if_nobodys(event: dict[str, Any]) -> dict[str, Any]:
    """A non-person's row (an assistant's, a system prompt's, a tool's) that names nobody it is
    about draws nothing: ``drawn: []``, so it is neither parsed nor read by the rules.

    Why that is exact enough to skip: such a message may only ever give L2 candidates about
    *another* subject (graphmem.extract.roles), and PEOPLE.md's convention is that without an
    ``about`` nobody is named — "Noted, vegetarian.", a tool's JSON, a long answer full of lists and
    code all label ``[]``. With an ``about`` the assistant may be relaying what that person said
    ("Got it, Omar: you started at Contoso") and the row is drawn as before. The message itself is
    stored, embedded and recalled as any other (docs/transcripts.md); ``drawn`` is what the ledger
    keeps for a replay, so a rebuild gives the same. Long assistant turns were most of a
    LongMemEval-style import's parse (docs/scaling.md, "Conversation at speed")."""
    if event.get("drawn_as") == "inferred" and not event.get("about") and "drawn" not in event:
        event["drawn"] = []
    return event


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
    relayed_by: str | None = None
    seq: int
    facts: list[str]
    duplicate: bool


def add(tenant: str, messages: Iterable[dict[str, Any]], clock: Callable[[], datetime], expand: Expander,
        prepare: Prepare, embedder: Any, batch_size: int, actor: str | None, *, user: str | None,
        session: str | None, at: Any) -> Plan[list[Added]]:
    """``mem.add``: rows of either shape, defaults for the user's name, the session and the time."""
    events = transcript_events(messages, clock(), user=user, session=session, at=at)
    results = yield from _load(tenant, events, clock, expand, prepare, embedder, batch_size, None, actor)
    return [Added(id=e["id"], speaker=e["speaker"], drawn_as=e.get("drawn_as", "stated"),
                  relayed_by=e.get("relayed_by"), seq=r.seq,
                  facts=list(r.facts), duplicate=r.duplicate) for e, r in zip(events, results)]


def alias_events(subject: str, alias: str, fields: dict[str, Any]) -> list[dict[str, Any]]:
    """Declare the many-valued ``alias`` topic and assert one more name for ``subject``."""
    return [{"op": "topic", "name": ALIAS_TOPIC, "cardinality": "many"},
            {"op": "set", "subject": subject, "topic": ALIAS_TOPIC, "value": alias, **fields}]
