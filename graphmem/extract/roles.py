"""Who speaks: transcript rows in the ecosystem's shape, and what a non-person's words may give.

Agent frameworks (OpenAI chat messages, LangChain, most MCP clients) hand a conversation over as
rows ``{"role", "content", "name"?, "id"?, "created_at"? | "timestamp"?}``: ``role`` one of
``user``, ``assistant``, ``system``, ``tool``; ``content`` a string or a list of parts of which
the ``{"type": "text", "text": …}`` ones are read (images, audio, tool calls carry no words to
draw from). :func:`role_message` turns one row into the arguments of a ``message`` event, and
the ``role`` decides who speaks (DESIGN.md §5, "who wrote it"):

* ``user`` — a person's own words: the speaker is the row's ``name``, else the user the caller
  names (``mem.add(rows, user="lin")``), else ``"user"``; what is drawn is the user's statement (L1).
* ``assistant``, ``system``, ``tool`` — not a person's words: the speaker is the row's ``name``,
  else the role; the message is kept (a recall item, attributed and dated) but drawn with
  ``drawn_as="inferred"``, so whatever it yields is at most an L2 candidate a person can confirm.
  A ``tool`` row is a source of kind ``tool``.

:func:`keep_drawn` is the second half of that rule, applied where a message's events are drawn:
from a non-person's words nothing is kept about the speaker itself ("Noted, vegetarian." said by
the assistant is not the assistant's diet), no quote (a quote's claims are dated and authored as
the quoted document's, which would make the model's rendering of it a person's statement) and no
episode; what remains — a ``set`` or ``revoke`` about someone or something else — becomes an L2
candidate.

Ids. A row without ``id`` gets one made from the session, the row's position and its role and
text: ``msg-`` + the first 20 hex digits of their SHA-256. The same rows added again (same
session, same order) make the same ids, and an id already in the ledger is a duplicate that
writes nothing — so re-adding a transcript never doubles it. Two equal rows at different
positions stay two messages.

Unknown fields are ignored in a role row: the ecosystem's rows carry many (``tool_calls``,
``tool_call_id``, ``refusal``, ``metadata``…) that say nothing graphmem stores. A missing or
unknown ``role``, or a ``content`` with no text, is refused with the row's position.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from typing import Any, Literal, Mapping

from ..core.errors import ValidationError

__all__ = ["PERSON_ROLES", "ROLES", "content_text", "is_role_row", "keep_drawn", "role_message", "row_id"]

ROLES = ("user", "assistant", "system", "tool")
PERSON_ROLES = frozenset({"user"})
Role = Literal["user", "assistant", "system", "tool"]


def is_role_row(row: Any) -> bool:
    """A row in the ecosystem's shape (a ``role``, no ``op``), as opposed to a FORMAT.md event or
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
    when = row.get("created_at", row.get("timestamp", at))
    event: dict[str, Any] = {"op": "message", "id": ident, "speaker": speaker, "text": text,
                             "at": _time(when) if when is not None else None, "session": sess,
                             "about": row.get("about", about)}
    if role not in PERSON_ROLES:
        event["drawn_as"] = "inferred"
    if role == "tool":
        event["kind"] = "tool"
    return {k: v for k, v in event.items() if v is not None}


def keep_drawn(drawn: list[dict[str, Any]], speaker: str, drawn_as: str) -> list[dict[str, Any]]:
    """What of a message's drawn events may stand: all of a person's (``drawn_as="stated"``); of a
    non-person's, only ``set``/``revoke`` about another subject (made L2 candidates where they are
    applied) — never the speaker's own "facts", a quote's claims, its quoted source or an episode."""
    if drawn_as == "stated":
        return drawn
    return [d for d in drawn if d.get("op") in ("set", "revoke") and d.get("subject") != speaker]
