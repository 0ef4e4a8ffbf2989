"""The L1 page: a subject's confirmed, explicitly stated facts as a readable ``user.md``.

:func:`render_page` is a projection like any other — rebuilt from the graph on every call, never
stored, never edited in place. A person (or an agent on their behalf) edits the page text and
hands it back to :func:`page_events`, which diffs it against the current page and turns every
change into ledger events, applied atomically (``GraphMem.apply_user_page``):

* a changed value → ``set`` from now (a change point, authority L1, source: the edit);
* a new ``- topic: value`` line → ``set`` from now (for a many-valued topic, one more value);
* a deleted line → ``revoke`` from now (for a many-valued topic, of that value); a deleted line of
  a temporary (bounded) fact → ``retract`` of that fact, since its end is already known.

The edit itself becomes a ``document`` source holding the lines that changed, so ``why`` names it.
Page format, one fact per line: ``- topic: value`` or ``- topic [env]: value``, an optional
``<!-- … -->`` comment after it; a value with a newline, or one starting with a quote, is JSON-quoted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..core.errors import ValidationError
from ..core.models import MAX_ID
from ..store.ops import Plan, run_query
from ..store.projection import to_datetime

__all__ = ["PageLine", "page_events", "parse_page", "render_page"]

_LINE = re.compile(r"^- (?P<topic>[^\s\[\]:]+)(?: \[(?P<env>[^\]]+)\])?: (?P<value>.*?)(?:\s*<!--(?P<note>.*)-->)?\s*$")


@dataclass(frozen=True)
class PageLine:
    topic: str
    env: str
    value: str
    fact: str | None = None
    bounded: bool = False


def _value_text(value: Any) -> str:
    text = str(value)
    return json.dumps(text, ensure_ascii=False) if ("\n" in text or text.startswith('"') or "<!--" in text
                                                    or text != text.strip() or not text) else text


def _on_page(row: dict[str, Any]) -> bool:
    """A page shows the explicit (L1), unconflicted live facts (summary/facts gives confirmed ones)."""
    return row["authority"] == "L1" and not row["conflict"] and row["value"] is not None


def page_lines(rows: list[dict[str, Any]]) -> list[PageLine]:
    return [PageLine(topic=r["topic"], env=r["env"] or "", value=str(r["value"]), fact=r["fact"],
                     bounded=r["valid_to"] is not None)
            for r in rows if _on_page(r)]


def render_page(subject: str, rows: list[dict[str, Any]], version: int, tenant: str) -> str:
    lines = [f"# {subject}", "",
             f"<!-- graphmem user page · tenant {tenant} · ledger v{version}. Confirmed facts {subject} stated.",
             "     Edit a value, add or delete a '- topic: value' line, then run",
             f"     graphmem user apply {subject} FILE — every change becomes a ledger event. -->", ""]
    for r in filter(_on_page, rows):
        where = f"{r['topic']} [{r['env']}]" if r["env"] else r["topic"]
        start, end = to_datetime(r["valid_from"]), to_datetime(r["valid_to"])
        span = f"since {start.date().isoformat()}" if end is None and start else \
            f"{start.date().isoformat() if start else '?'} to {end.date().isoformat() if end else '?'}, temporary"
        lines.append(f"- {where}: {_value_text(r['value'])}  <!-- {span}; source {r['source'] or '-'} -->")
    if len(lines) == 6:
        lines.append("<!-- nothing stated yet -->")
    return "\n".join(lines) + "\n"


def parse_page(text: str) -> list[PageLine]:
    """The fact lines of an edited page. Anything else (headings, comments, blank lines) is ignored;
    a line that starts like a fact but does not parse is an error, so no edit is silently lost."""
    out: list[PageLine] = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.startswith("- "):
            continue
        m = _LINE.match(raw)
        if not m:
            raise ValidationError(f"line {n}: expected '- topic: value' or '- topic [env]: value', got {raw[:80]!r}")
        value = m.group("value").strip()
        if value.startswith('"'):
            try:
                value = json.loads(value)
            except ValueError as e:
                raise ValidationError(f"line {n}: a quoted value must be a JSON string: {e}") from e
        topic, env = m.group("topic"), (m.group("env") or "").strip()
        for what, v in (("topic", topic), ("env", env), ("value", value)):
            if what != "env" and not v:
                raise ValidationError(f"line {n}: empty {what}")
            if what != "value" and len(v) > MAX_ID:
                raise ValidationError(f"line {n}: {what} longer than {MAX_ID} characters")
        out.append(PageLine(topic=topic, env=env, value=value))
    return out


def page_rows(tenant: str, now: datetime, subject: str) -> Plan[tuple[list[dict[str, Any]], int]]:
    rows = yield from run_query("summary/facts", tenant, subject=subject, topic=None, now=now)
    head = yield from run_query("recall/head", tenant)
    return rows, (head[0]["seq"] if head else 0)


def page_events(subject: str, current: list[PageLine], edited: list[PageLine], now: datetime,
                actor: str | None, many: set[str]) -> list[dict[str, Any]]:
    """The ledger events that turn the current page into the edited one (empty: nothing changed)."""
    def key(x: PageLine) -> tuple[str, str]:
        return (x.topic, x.env)

    cur: dict[tuple[str, str], list[PageLine]] = {}
    for x in current:
        cur.setdefault(key(x), []).append(x)
    new: dict[tuple[str, str], list[str]] = {}
    for x in edited:
        new.setdefault(key(x), []).append(x.value)
    changes: list[tuple[str, dict[str, Any]]] = []
    for (topic, env) in sorted(set(cur) | set(new)):
        was = cur.get((topic, env), [])
        want = new.get((topic, env), [])
        base = {"subject": subject, "topic": topic, **({"env": env} if env else {})}
        if topic in many:
            for v in want:
                if v not in [w.value for w in was]:
                    changes.append((f"+ {topic}: {v}", {"op": "set", **base, "value": v}))
            for w in was:
                if w.value not in want:
                    changes.append(_removal(w, base, many=True))
            continue
        if len(want) > 1:
            raise ValidationError(
                f"{topic!r} holds one value; the page gives {len(want)}. If it has several, declare it "
                f"many-valued first: graphmem declare-topic {topic} --cardinality many "
                f"(mem.declare_topic({topic!r}, 'many')), then apply the page again")
        if want and (not was or was[0].value != want[0]):
            changes.append((f"= {topic}: {want[0]}", {"op": "set", **base, "value": want[0]}))
        elif not want and was:
            changes.append(_removal(was[0], base, many=False))
    if not changes:
        return []
    sid = f"userpage-{subject}-{now.strftime('%Y%m%dT%H%M%S%f')}"[:MAX_ID]
    text = f"user page edit of {subject}:\n" + "\n".join(line for line, _ in changes)
    events = [{"op": "source", "id": sid, "kind": "document", "at": now.isoformat(), "text": text,
               "author": actor or subject}]
    for _, e in changes:
        events.append({**e, "source": sid, **({"actor": actor} if actor else {}),
                       "reason": "edited on the user page"})
    return events


def _removal(line: PageLine, base: dict[str, Any], *, many: bool) -> tuple[str, dict[str, Any]]:
    if line.bounded and line.fact:
        return f"- {line.topic}: {line.value} (temporary, withdrawn)", {"op": "retract", "fact": line.fact}
    return f"- {line.topic}: {line.value}", {"op": "revoke", **base, **({"value": line.value} if many else {})}


def show(tenant: str, now: datetime, subject: str) -> Plan[str]:
    """The page text for ``subject`` now."""
    rows, version = yield from page_rows(tenant, now, subject)
    return render_page(subject, rows, version, tenant)


def apply_page(tenant: str, now: datetime, clock: Any, expand: Any, subject: str, text: str,
               actor: str | None) -> Plan[list[dict[str, Any]]]:
    """Diff an edited page against the current one and apply the changes as one atomic batch."""
    from ..store.ops import many_valued, apply_bulk

    if not isinstance(text, str):
        raise ValidationError("the page must be text")
    edited = parse_page(text)
    rows, _ = yield from page_rows(tenant, now, subject)
    current = page_lines(rows)
    many = set()
    for topic in sorted({x.topic for x in current + edited}):
        if (yield from many_valued(tenant, topic)):
            many.add(topic)
    events = page_events(subject, current, edited, now, actor, many)
    if events:
        yield from apply_bulk(tenant, events, clock, expand, len(events) + 1, None)
    return events
