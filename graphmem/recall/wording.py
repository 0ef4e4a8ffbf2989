"""The small wordings every rendered line of a context shares: a value or a name that cannot
start a line of its own (JSON-quoted unless plain), a fence longer than any backtick run in the
text it holds, and times written the way a reader says them (a day, a month, a span, "now").
graphmem.recall.context_text lays out whole items with them; the message, gap, summary and
warning texts use them too, so every part of a context words a time the same way.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from typing import Any

__all__ = ["day", "fence", "inline", "name", "span", "when", "words"]

_PLAIN = re.compile(r"^[\w.\-:@/+ ,()'#&]*$")


def inline(value: Any) -> str:
    """A stored value on a line graphmem writes: always JSON-quoted, so it cannot break the line."""
    if value is None:
        return "(none)"
    return json.dumps(value, ensure_ascii=False)


def name(value: Any) -> str:
    """Ids, authors and topics: bare when plain, JSON-quoted otherwise."""
    text = "" if value is None else str(value)
    return text if text and _PLAIN.match(text) and len(text) <= 120 else json.dumps(text, ensure_ascii=False)


def fence(text: str, info: str = "text") -> str:
    """``text`` in a fenced block that it cannot close: the fence is longer than any backtick run."""
    longest = max((len(m.group()) for m in re.finditer(r"`+", text)), default=0)
    bar = "`" * max(3, longest + 1)
    # Carriage returns and other control characters could make a line look different to a reader.
    clean = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", " ", text)
    return f"{bar}{info}\n{clean}\n{bar}"


def day(t: datetime | None, *, date_only: bool = False) -> str:
    """A time as people read it: the date alone at midnight (or always, with ``date_only``: a
    summary speaks in days), "end of" a day at its last instant (the time a question about a
    whole month or year asks about), else to the second (UTC as Z); ``open`` for no bound."""
    if t is None:
        return "open"
    if date_only or (t.hour, t.minute, t.second, t.microsecond) == (0, 0, 0, 0):
        return t.date().isoformat()
    if (t.hour, t.minute, t.second, t.microsecond) == (23, 59, 59, 999999):
        return f"end of {t.date().isoformat()}"
    return t.isoformat(timespec="seconds").replace("+00:00", "Z")


def when(t: datetime | None) -> str:
    """A time in a prompt line: the date, "end of" the date, or date and minute in UTC."""
    text = day(t)
    return text[:16].replace("T", " ") + " UTC" if "T" in text else text


def words(topic: str) -> str:
    """A topic id as words: ``home_address`` → ``home address`` (dotted ids stay: ``deploy.port``)."""
    return topic.replace("_", " ")


def span(start: datetime, end: datetime) -> str:
    """A named range as people write it: 2024, 2026-03, a day, else first → last day."""
    last = end - timedelta(microseconds=1)
    if (start.month, start.day) == (1, 1) and (end.month, end.day) == (1, 1) and end.year == start.year + 1:
        return str(start.year)
    if start.day == 1 and end.day == 1 and (end.year * 12 + end.month) - (start.year * 12 + start.month) == 1:
        return f"{start.year}-{start.month:02d}"
    if end - start <= timedelta(days=1):
        return start.date().isoformat()
    return f"{start.date().isoformat()} to {last.date().isoformat()}"
