"""The read plans: what holds (``as_of``, for one slot or many), its timeline (``history``), why
(``why``), and entity paths (``path``). The default view reads the materialised segments in one
round trip; an L0 ``session`` or ``include_candidates`` resolves the slot's assertions with the
rules of :mod:`graphmem.core.temporal`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable, TypeVar

from ..core.answers import Answer, HistoryEntry, QuotedClaim, Why
from ..core.errors import ValidationError
from ..core.fields import parse_time
from ..core.relay import relayed_by
from ..core.temporal import View, resolve, resolve_many, standing_before, timeline, visible
from ..core.topics import BUILTIN_MANY
from .plans import Plan, run_query
from .projection import row_to_assertion, to_datetime
from .shaping import (answer_base, answer_from_ends, answer_from_resolutions, answer_from_rows, history_entries,
                      with_expiry_notes)

__all__ = ["as_of", "as_of_many", "assertions", "history", "many_valued", "path", "source_relays", "view_times",
           "why"]


def view_times(now: datetime, valid_at: Any, known_at: Any) -> tuple[datetime, datetime]:
    return (parse_time(valid_at) if valid_at is not None else now,
            parse_time(known_at) if known_at is not None else now)


def many_valued(tenant: str, topic: str) -> Plan[bool]:
    """Whether the tenant takes ``topic`` as many-valued: its declaration, else the built-in
    cardinality its first value will declare (graphmem.core.topics)."""
    rows = yield from run_query("topic/get", tenant, name=topic)
    declared = rows[0]["cardinality"] if rows else None
    return declared == "many" if declared else topic in BUILTIN_MANY


def source_relays(tenant: str, sources: Iterable[str | None]) -> Plan[dict[str, str]]:
    """Source id → the agent that relayed its words, for those of ``sources`` an agent relayed
    (graphmem.core.relay), in one query; none when no source is named."""
    uids = sorted({s for s in sources if s})
    if not uids:
        return {}
    rows = yield from run_query("load/relays", tenant, uids=uids)
    return {r["uid"]: r["relayed_by"] for r in rows}


Shown = TypeVar("Shown", Answer, Why)


def _relayed(tenant: str, answer: Shown) -> Plan[Shown]:
    """``answer`` (an Answer or a Why resolved in Python) with the relay of its sources."""
    named = [answer.source, *getattr(answer, "sources", [])]
    stored = yield from source_relays(tenant, named)
    agent = relayed_by(named, stored)
    return answer.model_copy(update={"relayed_by": agent}) if agent else answer


def assertions(tenant: str, subject: str, topic: str, env: str | None) -> Plan[list[Any]]:
    rows = yield from run_query("fact/slot", tenant, subject=subject, topic=topic, env=env or "")
    return [row_to_assertion(r) for r in rows]


def as_of(tenant: str, now: datetime, subject: str, topic: str, *, valid_at: Any = None, known_at: Any = None,
          env: str | None = None, session: str | None = None, include_candidates: bool = False) -> Plan[Answer]:
    """What holds for (subject, topic[, env]) at ``valid_at`` as known at ``known_at`` (both default now).

    The default view reads the materialised segments (``cypher/as_of.cypher``, one round trip);
    an L0 ``session`` or ``include_candidates`` resolves the slot's assertions with the same rules.
    """
    t, k = view_times(now, valid_at, known_at)
    base = answer_base(subject, topic, env, t, k)
    if session is None and not include_candidates:
        rows = yield from run_query("as_of", tenant, subject=subject, topic=topic, env=env or "", valid_at=t, known_at=k)
        many = rows[0]["cardinality"] == "many"
        answer = answer_from_rows([r for r in rows if r["fact"] is not None], many, base)
        expired = [(x["fact"], x["value"], to_datetime(x["expires_at"])) for x in rows[0]["expired"] if x["fact"]]
        return with_expiry_notes(answer, expired)
    many = yield from many_valued(tenant, topic)
    view = View(known_at=k, session=session, include_candidates=include_candidates)
    slot = yield from assertions(tenant, subject, topic, env)
    results = resolve_many(slot, t, view) if many else [resolve(slot, t, view, subject)]
    expired = [(a.uid, a.value, a.expires_at) for a in slot
               if a.kind == "set" and a.expires_at is not None and a.expires_at <= k and a.recorded_at <= k
               and a.speaks_at(t) and not (a.retracted_at and a.retracted_at <= a.expires_at)
               and not (a.rejected_at and a.rejected_at <= a.expires_at)]
    answer = yield from _relayed(tenant, answer_from_resolutions(results, many, base))
    return with_expiry_notes(answer, expired)


def as_of_many(tenant: str, now: datetime, slots: list[tuple[str, str, str | None]], *, valid_at: Any = None,
               known_at: Any = None) -> Plan[list[Answer]]:
    """:func:`as_of`'s default view for several (subject, topic, env) slots in one round trip, in
    the order given — recall asks what holds now for every message and old fact it shows."""
    if not slots:
        return []
    t, k = view_times(now, valid_at, known_at)
    rows = yield from run_query("as_of_many", tenant, slots=[{"subject": s, "topic": tp, "env": e or ""}
                                                         for s, tp, e in slots], valid_at=t, known_at=k)
    out = []
    for (subject, topic, env), r in zip(slots, rows):
        answer = answer_from_rows(r["segments"], r["cardinality"] == "many", answer_base(subject, topic, env, t, k))
        expired = [(x["fact"], x["value"], to_datetime(x["expires_at"])) for x in r["expired"] if x["fact"]]
        out.append(with_expiry_notes(answer, expired))
    return out


def history(tenant: str, now: datetime, subject: str, topic: str, *, env: str | None = None, known_at: Any = None,
            session: str | None = None, include_candidates: bool = False) -> Plan[list[HistoryEntry]]:
    """The valid-time timeline as known at ``known_at``: one entry per stretch, in order."""
    _, k = view_times(now, None, known_at)
    if session is None and not include_candidates:
        rows = yield from run_query("history", tenant, subject=subject, topic=topic, env=env or "", known_at=k)
        segs = [(to_datetime(r["valid_from"]), to_datetime(r["valid_to"]), r["value"], bool(r["conflict"]),
                 r["source"], r["fact"]) for r in rows]
    else:
        view = View(known_at=k, session=session, include_candidates=include_candidates)
        slot = yield from assertions(tenant, subject, topic, env)
        many = yield from many_valued(tenant, topic)
        by_uid = {a.uid: a for a in slot}
        segs = [(s.valid_from, s.valid_to, by_uid[s.fact].value, s.conflict, by_uid[s.fact].source, s.fact)
                for s in timeline(slot, view, subject, many=many)]
    entries = history_entries(segs)
    # Facts that expired by known_at no longer answer, but the history says they were there.
    slot = yield from assertions(tenant, subject, topic, env)
    for a in slot:
        if a.kind == "set" and a.expires_at is not None and a.expires_at <= k and a.recorded_at <= k \
                and not (a.retracted_at and a.retracted_at <= k) and not (a.rejected_at and a.rejected_at <= k):
            entries.append(HistoryEntry(value=a.value, valid_from=a.valid_from, valid_to=a.valid_to,
                                        source=a.source, fact=a.uid, expired=True))
    stored = yield from source_relays(tenant, (e.source for e in entries))  # who relayed each stretch's words
    entries = [e.model_copy(update={"relayed_by": relayed_by([e.source], stored)}) for e in entries]
    return sorted(entries, key=lambda e: (e.valid_from, e.expired))


def why(tenant: str, now: datetime, subject: str, topic: str, *, valid_at: Any = None, known_at: Any = None,
        env: str | None = None, session: str | None = None, include_candidates: bool = False) -> Plan[Why]:
    """The source behind the answer, the change point (and its source) it replaced, and the quoted
    claims for that instant that the answer outranks (corroborating or conflicting)."""
    t, k = view_times(now, valid_at, known_at)
    view = View(known_at=k, session=session, include_candidates=include_candidates)
    if session is None and not include_candidates:
        rows = yield from run_query("why", tenant, subject=subject, topic=topic, env=env or "", valid_at=t, known_at=k)
        if not rows:
            return Why(subject=subject, topic=topic)
        r = rows[0]
        conflict = sorted({x["value"] for x in rows}) if any(x["conflict"] for x in rows) else None
        found = Why(subject=subject, topic=topic, value=None if conflict else r["value"], conflict=conflict,
                    source=r["source"], fact=r["fact"], supersedes_source=r["supersedes_source"],
                    supersedes_fact=r["supersedes_fact"], supersedes_value=r["supersedes_value"],
                    quoted_by=r["quoted_by"], text=r["text"],
                    relayed_by=relayed_by([r["source"]], {r["source"]: r["relayed_by"]} if r["relayed_by"] else {}))
        slot = yield from assertions(tenant, subject, topic, env)
        return _with_quotes(found, slot, t, view, {x["fact"] for x in rows})
    slot = yield from assertions(tenant, subject, topic, env)
    res = resolve(slot, t, view, subject)
    if res.kind == "none" or res.primary is None:
        return Why(subject=subject, topic=topic)
    w = res.primary
    prev = standing_before(slot, w.valid_from, view, subject, exclude=w.uid).primary
    found = yield from _relayed(tenant, Why(
        subject=subject, topic=topic, value=res.value,
        conflict=[v for v in res.values if v] if res.kind == "conflict" else None, source=w.source, fact=w.uid,
        supersedes_source=prev.source if prev else None, supersedes_fact=prev.uid if prev else None,
        supersedes_value=prev.value if prev else None))
    return _with_quotes(found, slot, t, view, {a.uid for a in res.winners})


def _with_quotes(found: Why, slot: list[Any], t: datetime, view: View, answering: set[str]) -> Why:
    """``found`` with the quoted claims that speak about ``t`` (inside their stretch, visible in
    ``view``) but do not answer: a statement for that instant outranked them."""
    said = set(found.conflict or ([found.value] if found.value is not None else []))
    notes = [QuotedClaim(source=a.source, fact=a.uid, value=a.value, agrees=a.value in said)
             for a in slot if a.quoted and a.uid not in answering and visible(a, view)
             and a.valid_from <= t and (a.valid_to is None or t < a.valid_to)]
    return found.model_copy(update={"quotes": notes}) if notes else found


def path(tenant: str, now: datetime, start: str, topics: list[str], *, valid_at: Any = None, known_at: Any = None,
         env: str | None = None, session: str | None = None, include_candidates: bool = False) -> Plan[Answer]:
    """Follow entity-valued topics from ``start``, each hop answered at the same (t, k) for every
    entity the hop before reached (a many-valued hop branches; a walk may come back to an entity,
    docs/semantics.md). The default view walks the ``RELATED`` edges in one query; an L0
    ``session`` or ``include_candidates`` asks ``as_of`` hop by hop, with the same answer shape."""
    if not topics:
        raise ValidationError("path needs at least one topic")
    t, k = view_times(now, valid_at, known_at)
    base = answer_base(start, ".".join(topics), env, t, k)
    if session is None and not include_candidates:
        rows = yield from run_query("path", tenant, start=start, path=list(topics), env=env or "", valid_at=t, known_at=k)
        many = yield from many_valued(tenant, topics[-1])
        return (yield from _relayed(tenant, answer_from_rows(rows, many, base)))

    reached: list[str] = [start]
    answers: list[Answer] = []
    for i, topic in enumerate(topics):
        if i:  # every entity the hop before reached, as the default view's walks branch (a conflict ends a walk)
            reached = list(dict.fromkeys(v for a in answers if a.is_entity
                                         for v in (a.values if a.values is not None else [a.value]) if v is not None))
        answers = []
        for subject in reached:
            answers.append((yield from as_of(tenant, now, subject, topic, valid_at=t, known_at=k, env=env,
                                             session=session, include_candidates=include_candidates)))
    many = yield from many_valued(tenant, topics[-1])
    return answer_from_ends(answers, many, base)
