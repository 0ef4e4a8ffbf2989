"""Summaries: derived copies that know which ledger version and which facts they came from.

A summary of a subject (or of one of its topics) is built by :func:`summarise` — deterministic,
no model: one line per topic and environment with the value and its validity, conflicts shown as
conflicts, inferred values marked. It is stored as a ``Summary`` node with ``version`` (the
ledger sequence number it was built at) and ``DERIVED_FROM`` links to the facts it used.

Every write transaction that touches a (subject, topic) marks the summaries built from it stale
(``cypher/write/summaries_stale.cypher``, in the same transaction as the events, so no reader can
see the new facts and a fresh-looking old summary). A stale summary never answers:
:func:`summary` rebuilds it, or with ``rebuild=False`` raises :class:`~graphmem.core.errors.StaleError`.
A summary also records ``changes_at``, the earliest time its content changes by itself (a
``valid_to``, an ``expires_at``, a value that resumes after an expiry, a change dated in the
future): from then on it counts as stale, like one a write touched (docs/design.md §6).
Saving takes the ledger head's lock and re-reads its version, so a write that lands while a
summary is being built leaves it stale rather than wrongly fresh. Rebuild and erase drop
summaries with the rest of the projection.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..core.errors import StaleError
from .wording import day
from .memory_context import SummaryView
from ..core.models import check_ids
from ..store.ops import Plan, Tx, run_query
from ..store.projection import to_datetime

__all__ = ["BUILDER", "summarise", "summary"]

BUILDER = "graphmem.summaries.summarise/1"


def summarise(subject: str, rows: list[dict[str, Any]], version: int) -> str:
    """The text of a summary: deterministic for the same facts (sorted, no clock, no model)."""
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in sorted(rows, key=lambda r: (r["topic"], r["env"] or "", str(r["value"]))):
        grouped.setdefault((r["topic"], r["env"] or ""), []).append(r)
    lines = [f"{subject} (ledger v{version})"]
    for (topic, env), rs in grouped.items():
        where = f"{topic} [{env}]" if env else topic
        if any(r["conflict"] for r in rs):
            lines.append(f"- {where}: conflict between " + " | ".join(str(r["value"]) for r in rs))
            continue
        for r in rs:
            start, end = to_datetime(r["valid_from"]), to_datetime(r["valid_to"])
            span = (f"since {day(start, date_only=True)}" if end is None
                    else f"{day(start, date_only=True)} to {day(end, date_only=True)}")
            mark = ", inferred" if r["authority"] == "L2" else ""
            lines.append(f"- {where}: {r['value']} ({span}{mark})")
    if len(lines) == 1:
        lines.append("- nothing holds now")
    return "\n".join(lines)


def summary(tenant: str, now: datetime, subject: str, topic: str | None = None, *,
            rebuild: bool = True) -> Plan[SummaryView]:
    """The subject's (or one topic's) summary, rebuilt first if any fact it depends on changed."""
    check_ids(subject=subject, topic=topic)
    uid = f"{subject}/{topic or '*'}"
    stored = yield from run_query("summary/get", tenant, uid=uid)
    changes_at = to_datetime(stored[0]["changes_at"]) if stored else None
    expired = changes_at is not None and changes_at <= now
    was_stale = bool(stored and (stored[0]["stale"] or expired))
    if stored and not was_stale:
        s = stored[0]
        return SummaryView(subject=subject, topic=topic or "*", text=s["text"], version=s["version"],
                           facts=sorted(s["facts"]), changes_at=changes_at)
    if was_stale and not rebuild and expired and not stored[0]["stale"]:
        raise StaleError(f"the summary of {uid} was built at ledger v{stored[0]['version']} and its content "
                         f"changed by itself at {changes_at.isoformat()} (a validity or an expiry ended); "  # type: ignore[union-attr]
                         "rebuild it before use")
    if was_stale and not rebuild:
        raise StaleError(f"the summary of {uid} was built at ledger v{stored[0]['version']} and a later event "
                         f"(v{stored[0]['stale_seq']}) touched its facts; rebuild it before use")
    head = yield from run_query("recall/head", tenant)
    version = head[0]["seq"] if head else 0
    rows = yield from run_query("summary/facts", tenant, subject=subject, topic=topic, now=now)
    text = summarise(subject, rows, version)
    facts = sorted({r["fact"] for r in rows})
    nxt = yield from run_query("summary/next_change", tenant, subject=subject, topic=topic, now=now)
    changes = to_datetime(nxt[0]["changes_at"]) if nxt else None
    yield Tx(lambda: run_query("summary/save", tenant, uid=uid, subject=subject, topic=topic or "*", text=text,
                           version=version, built_at=now, facts=facts, builder=BUILDER, changes_at=changes),
             "summary/save")
    return SummaryView(subject=subject, topic=topic or "*", text=text, version=version, facts=facts, rebuilt=True,
                       was_stale=was_stale, changes_at=changes)
