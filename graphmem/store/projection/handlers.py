"""Op → handler: how each kind of ledger event changes the projection.

Every handler has the same shape, ``handler(work, cur, event)``: the unit of work's state, the
event being applied (:class:`~.context.Current`) and the validated event. They read through the
slot cache, append to the write buffer and mark changed slots for recomputation; none does I/O
itself (each is a generator of :class:`~graphmem.store.queries.Call`). :data:`HANDLERS` is the
whole table: an op missing from it is a bug the unit of work reports, not an attribute lookup.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from typing import Any, Callable, Iterable

from ..queries import Steps
from .context import Current, Work
from .slots import slot_key
from .facts import NewFact, create, expiry, said_by
from .values import plain, to_datetime, to_time
from ...core.errors import NotFoundError, TemporalError, ValidationError
from ...core.models import ExpireEvent, MessageEvent, QuoteEvent, SetEvent, SourceEvent, parse_event
from ...core.temporal import View, resolve_many
from ...core.topics import BUILTIN_MANY, builtin_declaration

__all__ = ["HANDLERS", "Handler", "dispatch"]

Handler = Callable[[Work, Current, Any], Steps[None]]
NO_MARKS = {"confirmed_at": None, "rejected_at": None, "retracted_at": None, "promoted_at": None,
            "withheld_at": None, "restored_at": None}
DELEGATES = "delegates"  # the topic on which a subject names who may confirm for them


def dispatch(work: Work, cur: Current, event: Any) -> Steps[None]:
    """Apply one event with its op's handler."""
    handler = HANDLERS.get(event.op)
    if handler is None:
        raise ValidationError(f"no handler for op {event.op!r}")
    yield from handler(work, cur, event)


# -- texts and schema -----------------------------------------------------------------------------


def op_source(work: Work, cur: Current, e: SourceEvent) -> Steps[None]:
    yield from work.cache.load_sources([e.id])
    if work.cache.sources.get(e.id) is not None:
        raise ValidationError(f"source {e.id!r} already exists with other content; give the new one another id")
    src = {"uid": e.id, "kind": e.kind, "at": e.at, "text": e.text, "author": e.author,
           "expires_at": getattr(e, "expires_at", None)}
    work.cache.sources[e.id] = src
    work.buffer.sources.append({**src, "recorded_at": cur.at, "seq": cur.seq, "relayed_by": e.relayed_by})


def op_topic(work: Work, cur: Current, e: Any) -> Steps[None]:
    """Declare a topic. A changed cardinality changes the answers of every slot of the topic, stored
    or made in this unit, so all of them are loaded and recomputed (a declaration is rare)."""
    yield from work.cache.load_topics([e.name])
    changed = work.cache.topics[e.name] != e.cardinality
    work.cache.topics[e.name] = e.cardinality
    work.cache.declared.add(e.name)
    work.cache.ttl[e.name] = e.ttl_seconds
    work.buffer.topics[e.name] = (e.cardinality, e.ttl_seconds)
    if not changed:
        return
    rows = yield from work.query("load/topic_slots", topic=e.name)
    yield from work.cache.load_slots({slot_key(r["subject"], e.name, r["env"]) for r in rows})
    for key, slot in work.cache.slots.items():
        if key[1] == e.name:
            work.refresh(slot, cur)


# -- facts ----------------------------------------------------------------------------------------


def op_set(work: Work, cur: Current, e: SetEvent) -> Steps[None]:
    src = (yield from work.cache.source(e.source)) if e.source else None
    valid_from = e.valid_from or (src["at"] if src else None) or cur.at
    if e.valid_to is not None and e.valid_to <= valid_from:
        raise TemporalError(f"valid_to {e.valid_to.isoformat()} is not after valid_from {valid_from.isoformat()}")
    if e.ref:
        yield from work.cache.load_refs([e.ref])
        if e.ref in work.cache.facts_by_ref:
            raise ValidationError(f"ref {e.ref!r} is already in use in this tenant")
    is_entity = e.object is not None
    yield from work.cache.load_topics([e.topic])  # its TTL, if any
    author, said_at = said_by(src, e.actor, cur)
    yield from create(work, cur, NewFact(
        subject=e.subject, topic=e.topic, env=e.env, value=e.object if is_entity else e.value,
        is_entity=is_entity, valid_from=valid_from, valid_to=e.valid_to, authority=e.authority,
        session=e.session, status=e.status, confidence=e.confidence, ref=e.ref, author=author,
        said_at=said_at, source=e.source, evidence=e.evidence,
        expires_at=expiry(work, cur, e.topic, e.expires_at, src)))


def op_revoke(work: Work, cur: Current, e: Any) -> Steps[None]:
    src = (yield from work.cache.source(e.source)) if e.source else None
    author, said_at = said_by(src, e.actor, cur)
    yield from create(work, cur, NewFact(
        kind="revoke", subject=e.subject, topic=e.topic, env=e.env, value=e.value,
        valid_from=e.effective or (src["at"] if src else None) or cur.at, authority=e.authority,
        session=e.session, author=author, said_at=said_at, source=e.source))


def op_quote(work: Work, cur: Current, e: QuoteEvent) -> Steps[None]:
    quoting = yield from work.cache.source(e.source)
    old = yield from work.cache.source(e.quotes)
    work.buffer.quotes.append({"source": e.source, "quotes": e.quotes, "recorded_at": cur.at, "seq": cur.seq})
    start, end = quoted_stretch(old["at"], quoting["at"], cur.at)
    if end is None:
        return  # the cited source is not older than the quote: nothing it says can be history
    for c in e.claims:
        is_entity = c.object is not None
        yield from work.cache.load_topics([c.topic])
        # The claim is the old document's: by its author, from it, and history only — it holds
        # from the document's time until the quote, so it is never current (docs/semantics.md).
        yield from create(work, cur, NewFact(
            subject=c.subject, topic=c.topic, env=c.env, value=c.object if is_entity else c.value,
            is_entity=is_entity, valid_from=start, valid_to=end, author=old["author"], said_at=old["at"],
            quoted=True, source=e.quotes, expires_at=expiry(work, cur, c.topic, None, old)))


def quoted_stretch(document_at: datetime, quoted_at: datetime, recorded_at: datetime
                   ) -> tuple[datetime, datetime | None]:
    """The valid time of a quoted claim: ``[the document's time, the quote)``.

    A quote says what an older document said *then*; it asserts nothing about the moment it is
    quoted or after. Bounding the claim at the quoting source's time (or the quote's record time,
    if earlier) makes it an exception in the past that the temporal rules let fill in history but
    never reach the present, whatever else the slot holds. ``None`` as the end: the cited source
    is not older than the quote, so there is no past for the claim to speak about.
    """
    end = min(quoted_at, recorded_at)
    return document_at, (end if end > document_at else None)


def op_expire(work: Work, cur: Current, e: ExpireEvent) -> Steps[None]:
    """Record that facts reached their expiry and recompute their slots (sweeper bookkeeping)."""
    for uid in e.facts:
        key = yield from work.cache.locate(uid)
        if key is None:
            raise NotFoundError(f"unknown fact {uid!r}", kind="fact", id=uid)
        slot = yield from work.cache.slot(key)
        work.buffer.expired.append({"uid": uid, "at": cur.at})
        cur.facts.append(uid)
        work.refresh(slot, cur)


def _marker(field_name: str) -> Handler:
    """The handler of ``confirm``, ``reject`` or ``retract``: stamp ``field_name`` on one fact."""
    def op_mark(work: Work, cur: Current, e: Any) -> Steps[None]:
        yield from _mark(work, cur, e, field_name)
    return op_mark


def _mark(work: Work, cur: Current, e: Any, field_name: str) -> Steps[None]:
    if e.ref:
        yield from work.cache.load_refs([e.ref])
        found = work.cache.facts_by_ref.get(e.ref)
        key = work.cache.fact_slot.get(found[0]) if found else None
        uid = found[0] if found else None
    else:
        uid = e.fact
        key = yield from work.cache.locate(uid)
    if uid is None or key is None:
        raise NotFoundError(f"unknown ref {e.ref!r}" if e.ref else f"unknown fact {e.fact!r}",
                            kind="ref" if e.ref else "fact", id=e.ref or e.fact)
    slot = yield from work.cache.slot(key)
    i, a = next((i, a) for i, a in enumerate(slot.assertions) if a.uid == uid)
    if a.retracted_at is not None or a.rejected_at is not None:
        raise ValidationError(f"{e.ref or e.fact!r} was already withdrawn")
    if field_name in ("confirmed_at", "rejected_at") and (a.status != "candidate" or a.confirmed_at is not None):
        raise ValidationError(f"{e.ref or e.fact!r} is not a candidate; only candidates are confirmed or rejected")
    changes: dict[str, Any] = {field_name: cur.at}
    if field_name == "confirmed_at" and a.authority == "L2" \
            and (yield from _speaks_for(work, e.actor, slot.key[0], cur.at)):
        changes["promoted_at"] = cur.at  # the subject's own confirmation: L1 from now on
    slot.assertions[i] = replace(a, **changes)
    work.buffer.marks.append({**NO_MARKS, "uid": uid, **changes})
    cur.facts.append(uid)
    work.refresh(slot, cur)


def _speaks_for(work: Work, actor: str | None, subject: str, at: datetime) -> Steps[bool]:
    """Is ``actor`` the subject, or someone the subject delegated? A delegation is the subject's
    own statement on its ``delegates`` topic (a fact, so it has validity and history too)."""
    if actor is None:
        return False
    if actor == subject:
        return True
    slot = yield from work.cache.slot((subject, DELEGATES, ""))
    return any(r.value == actor and r.primary is not None and r.primary.author == subject
               for r in resolve_many(slot.assertions, at, View(known_at=at)))


# -- governance: erase requests hold facts back, a cancel gives them back -------------------------


def _hold(work: Work, cur: Current, uids: Iterable[str], field_name: str) -> Steps[None]:
    """Hold facts back for an erase request (``withheld_at``), or give them back (``restored_at``)."""
    for uid in uids:
        key = yield from work.cache.locate(uid)
        if key is None:
            continue  # already erased by another request: nothing to hold back
        slot = yield from work.cache.slot(key)
        i, a = next((i, a) for i, a in enumerate(slot.assertions) if a.uid == uid)
        changes: dict[str, Any] = {field_name: cur.at}
        slot.assertions[i] = replace(a, **changes)
        work.buffer.marks.append({**NO_MARKS, "uid": uid, field_name: cur.at})
        cur.facts.append(uid)
        work.refresh(slot, cur)


def op_erase_request(work: Work, cur: Current, e: Any) -> Steps[None]:
    yield from _hold(work, cur, e.facts, "withheld_at")
    work.buffer.source_marks.extend({"uid": u, "withheld_at": cur.at, "restored_at": None} for u in e.sources)


def op_erase_cancel(work: Work, cur: Current, e: Any) -> Steps[None]:
    rows = yield from work.query("governance/erase_request", request=e.request, before=cur.seq)
    if not rows or rows[0]["op"] != "erase_request":
        raise NotFoundError(f"unknown erase request {e.request!r}", kind="erase request", id=e.request)
    if rows[0]["closed"]:
        raise ValidationError(f"erase request {e.request!r} was already {rows[0]['closed']}")
    payload = json.loads(rows[0]["payload"])
    yield from _hold(work, cur, payload.get("facts", []), "restored_at")
    work.buffer.source_marks.extend({"uid": u, "withheld_at": None, "restored_at": cur.at}
                                    for u in payload.get("sources", []))


# -- records beside the facts ---------------------------------------------------------------------


def op_episode(work: Work, cur: Current, e: Any) -> Steps[None]:
    """An episode (who did what, where, when): a record of its own beside the facts, from its
    source; it supersedes nothing and takes no part in ``as_of``."""
    src = yield from work.cache.source(e.source)
    cur.n_episodes += 1
    work.buffer.episodes.append({"uid": f"ep{cur.seq}.{cur.n_episodes}", "seq": cur.seq, "who": e.who,
                                 "what": e.what, "where": e.where, "start": e.start, "end": e.end,
                                 "evidence": e.evidence, "source": e.source, "said_at": src["at"],
                                 "planned": e.planned, "recorded_at": cur.at})


def op_playbook(work: Work, cur: Current, e: Any) -> Steps[None]:
    """A playbook transition: in the ledger for audit and the chain; no fact changes."""
    return
    yield


def op_working(work: Work, cur: Current, e: Any) -> Steps[None]:
    """A working-memory step: its own nodes (projection/working.py), no fact changes."""
    from .working import check_detail
    check_detail(e.action, e.detail)
    work.buffer.working.append({"seq": cur.seq, "at": cur.at, "action": e.action, "session": e.session,
                                "detail": e.detail, "actor": e.actor})
    return
    yield


# -- messages: a source, and what the extractor draws from it -------------------------------------


def op_message(work: Work, cur: Current, e: MessageEvent) -> Steps[None]:
    """Register the message as a source, then apply what the extractor draws from it.

    On replay the drawn events come from the ledger (``e.drawn``), so a rebuild never depends
    on the extractor's version.
    """
    yield from op_source(work, cur, SourceEvent(op="source", id=e.id, kind=e.kind, at=e.at, text=e.text,
                                                author=e.speaker, relayed_by=e.relayed_by))
    # Where and about whom it was said: recall scopes and ranks messages by them.
    work.buffer.sources[-1].update(session=e.session, about=e.about)
    if e.drawn is None:
        if work.expand is None:
            raise ValidationError("a 'message' event needs an extractor; use GraphMem.ingest")
        context = yield from _recent(work, [s for s in (e.speaker, e.about) if s])
        drawn = yield from _declaring_builtins(work, [plain(d) for d in work.expand(e, context)])
    else:
        drawn = e.drawn
    cur.drawn = drawn
    for d in drawn:
        if d.get("op") == "topic" and d == builtin_declaration(d.get("name", "")):  # see _declaring_builtins
            yield from op_topic(work, cur, parse_event(d))
            continue
        ev = parse_event(d if d.get("op") == "source" else {**d, "source": d.get("source", e.id)})
        if ev.op in ("message", "topic") or ev.recorded_at is not None or ev.tenant is not None:
            raise ValidationError(f"an extractor may not draw {ev.op!r} events or set recorded_at/tenant")
        if e.drawn_as == "inferred" and ev.op in ("set", "revoke"):  # not a person's own words
            ev = ev.model_copy(update={"authority": "L2", **({"status": "candidate"} if ev.op == "set" else {})})
        yield from dispatch(work, cur, ev)


def _declaring_builtins(work: Work, drawn: list[dict[str, Any]]) -> Steps[list[dict[str, Any]]]:
    """The drawn events, with a declaration before the first value of a built-in many-valued topic
    the tenant never declared (graphmem.core.topics). It is stored with the drawn events, so a
    replay declares exactly what the first application did, whatever graphmem's list is then."""
    builtin = {d["topic"] for d in drawn if d.get("op") == "set" and d.get("topic") in BUILTIN_MANY}
    if not builtin:
        return drawn
    yield from work.cache.load_topics(builtin)
    out: list[dict[str, Any]] = []
    for d in drawn:
        topic = str(d.get("topic"))
        if d.get("op") == "set" and topic in builtin and topic not in work.cache.declared:
            out.append(builtin_declaration(topic))
            work.cache.declared.add(topic)
        out.append(d)
    return out


def _recent(work: Work, subjects: list[str]) -> Steps[list[dict[str, Any]]]:
    """The latest facts about these subjects, stored or made earlier in this unit, newest first:
    an extractor's context (the facade hands them to it as ``PriorFact``)."""
    # Within one unit the stored facts change only through this unit's own writes (``pending``
    # below), so the stored part is read once per set of subjects: a bulk of messages by the
    # same speakers costs one query, not one per message.
    key = tuple(subjects)
    if key not in work.recent_rows:
        work.recent_rows[key] = yield from work.query("fact/recent", subjects=subjects, limit=50)
    stored = [_prior(r, to_time(r["valid_from"]), to_datetime(r["valid_to"])) for r in work.recent_rows[key]]
    withdrawn = {m["uid"] for m in work.buffer.marks if m["retracted_at"] or m["rejected_at"]}
    pending = [_prior(p, p["valid_from"], p["valid_to"])
               for p in work.buffer.facts if p["subject"] in subjects and p["kind"] == "set" and not p["quoted"]]
    return sorted([p for p in stored + pending if p["uid"] not in withdrawn], key=lambda p: -p["seq"])


def _prior(row: dict[str, Any], valid_from: datetime, valid_to: datetime | None) -> dict[str, Any]:
    """One recent fact as the extractor's context carries it (the fields of ``PriorFact``)."""
    return {"uid": row["uid"], "subject": row["subject"], "topic": row["topic"], "env": row["env"] or None,
            "value": row["value"], "valid_from": valid_from, "valid_to": valid_to, "author": row["author"],
            "seq": row["seq"]}


HANDLERS: dict[str, Handler] = {
    "source": op_source, "topic": op_topic, "message": op_message,
    "set": op_set, "revoke": op_revoke, "quote": op_quote, "expire": op_expire,
    "confirm": _marker("confirmed_at"), "reject": _marker("rejected_at"), "retract": _marker("retracted_at"),
    "erase_request": op_erase_request, "erase_cancel": op_erase_cancel,
    "episode": op_episode, "playbook": op_playbook, "working": op_working,
}
