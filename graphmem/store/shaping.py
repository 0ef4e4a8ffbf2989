"""Rows and resolutions shaped into answers (:class:`~graphmem.core.answers.Answer`,
:class:`~graphmem.core.answers.HistoryEntry`): pure functions the read plans
(:mod:`graphmem.store.reads`) and the clients' ``history_values`` share.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..core.answers import Answer, HistoryEntry
from ..core.relay import relayed_by
from .projection import to_datetime

__all__ = ["answer_base", "answer_from_ends", "answer_from_resolutions", "answer_from_rows", "empty_answer",
           "history_entries", "history_values", "with_expiry_notes"]


def answer_base(subject: str, topic: str, env: str | None, t: datetime, k: datetime) -> dict[str, Any]:
    """What every answer says about its question: the slot and the view (``valid_at``, ``known_at``)."""
    return dict(subject=subject, topic=topic, env=env, valid_at=t, known_at=k)


def empty_answer(subject: str, topic: str, env: str | None, t: datetime, k: datetime) -> Answer:
    """The answer when nothing can hold (a tenant with nothing on its timeline): no value."""
    return answer_from_rows([], False, answer_base(subject, topic, env, t, k))


def answer_from_rows(rows: list[dict[str, Any]], many: bool, base: dict[str, Any]) -> Answer:
    if not rows:
        return Answer(**base, values=[] if many else None)
    first = rows[0]
    fields = dict(base, source=first["source"], fact=first["fact"], authority=first["authority"],
                  status=first["status"], is_entity=bool(first["is_entity"]), author=first.get("author"),
                  valid_from=to_datetime(first["valid_from"]), valid_to=to_datetime(first["valid_to"]),
                  sources=[r["source"] for r in rows if r["source"]],
                  relayed_by=relayed_by((r["source"] for r in rows),
                                        {r["source"]: r["relayed_by"] for r in rows if r.get("relayed_by")}))
    if many:
        fields["values"] = [r["value"] for r in rows]
    elif any(r["conflict"] for r in rows):
        fields["conflict"] = sorted({r["value"] for r in rows}, key=str)
    else:
        fields["value"] = first["value"]
    return Answer(**fields)


def answer_from_resolutions(results: list[Any], many: bool, base: dict[str, Any]) -> Answer:
    results = [r for r in results if r.kind != "none"]
    if not results:
        return Answer(**base, values=[] if many else None)
    w = results[0].primary
    common = dict(source=w.source, fact=w.uid, authority=w.authority, status=w.status, author=w.author,
                  is_entity=w.is_entity, valid_from=w.valid_from, valid_to=w.valid_to,
                  sources=[x.source for r in results for x in r.winners if x.source])
    if many:
        return Answer(**base, **common, values=[r.value for r in results])
    r = results[0]
    if r.kind == "conflict":
        return Answer(**base, **common, conflict=sorted({v for v in r.values if v is not None}, key=str))
    return Answer(**base, **common, value=r.value)


def _first_value(a: Answer) -> str:
    return a.value if a.value is not None else min(a.values or a.conflict or [""])


def answer_from_ends(ends: list[Answer], many: bool, base: dict[str, Any]) -> Answer:
    """A path's answer from the last topic's answer at every entity its walks reached (the rules
    view asks them one as_of at a time), shaped as :func:`answer_from_rows` shapes the default
    view's rows: every value of a many-valued topic, or the first value in value order, or a
    conflict if any end has one."""
    ends = [a for a in ends if a.value is not None or a.values or a.conflict or a.notes]  # notes: what expired
    if len(ends) <= 1:
        return ends[0].model_copy(update=base) if ends else Answer(**base, values=[] if many else None)
    ends.sort(key=_first_value)  # the default view orders its rows by value
    merged = dict(sources=[x for a in ends for x in a.sources], notes=[x for a in ends for x in a.notes])
    if many:
        values = sorted(v for a in ends for v in a.values or [])
        return ends[0].model_copy(update=dict(base, values=values, **merged))
    if any(a.conflict for a in ends):
        conflict = sorted({v for a in ends for v in (a.conflict or ([a.value] if a.value is not None else []))})
        return ends[0].model_copy(update=dict(base, value=None, conflict=conflict, **merged))
    return ends[0].model_copy(update=dict(base, **merged))


def with_expiry_notes(answer: Answer, expired: list[tuple[str, Any, Any]]) -> Answer:
    """Say what an expiry changed: the value that resumed after it, or that nothing holds since."""
    if not expired:
        return answer
    live = set(answer.values or []) | set(answer.conflict or []) | ({answer.value} if answer.value else set())
    notes = []
    for uid, value, at in sorted(expired, key=lambda x: (x[2], x[0])):
        if value in live:
            continue
        when = at.isoformat() if at else "?"
        if answer.holds:
            notes.append(f"resumed: {value!r} ({uid}) expired at {when}; what it had replaced holds again")
        else:
            notes.append(f"expired: {value!r} ({uid}) expired at {when}; nothing else holds")
    return answer.model_copy(update={"notes": notes}) if notes else answer


def history_entries(segs: list[tuple[Any, ...]]) -> list[HistoryEntry]:
    """Group segment rows (a conflict comes as several rows of one stretch) into entries."""
    grouped: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
    for s in sorted(segs, key=lambda s: (s[0], str(s[2]))):
        grouped.setdefault((s[0], s[1], s[3]), []).append(s)
    out: list[HistoryEntry] = []
    for (start, end, conflict), rows in grouped.items():
        if conflict:
            out.append(HistoryEntry(conflict=sorted({r[2] for r in rows}), valid_from=start, valid_to=end,
                                    source=rows[0][4], fact=rows[0][5]))
        else:
            out.extend(HistoryEntry(value=r[2], valid_from=start, valid_to=end, source=r[4], fact=r[5]) for r in rows)
    return out


def history_values(entries: list[HistoryEntry]) -> list[str]:
    """docs/format.md's history: values in the order they became valid, consecutive repeats merged.

    Only repeats that touch merge: a value that holds again after a stretch where nothing held
    (a revoke, the end of a temporary value) appears again — A, nothing, A gives [A, A].
    """
    out: list[str] = []
    end: datetime | None = None  # where the last listed value's stretch ends (None: open-ended)
    for entry in entries:
        if entry.expired:
            continue
        label = entry.value if entry.conflict is None else " | ".join(entry.conflict)
        if label is None:
            continue
        if out and out[-1] == label and (end is None or end >= entry.valid_from):
            end = None if end is None or entry.valid_to is None else max(end, entry.valid_to)
            continue
        out.append(label)
        end = entry.valid_to
    return out
