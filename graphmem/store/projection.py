"""The write path: ledger events and their effect on the graph projection, in one transaction.

A :class:`UnitOfWork` lives inside one Neo4j write transaction. It locks the tenant's ledger head
(so a tenant's events are totally ordered and record time never runs back), applies events one
after another to an in-memory picture of the slots they touch, and :meth:`UnitOfWork.flush`
writes everything at the end with a few ``UNWIND`` queries. It does no I/O itself: its methods
are generators that yield :class:`~graphmem.store.queries.Call` and receive rows, so the sync and the
async client run the very same code (:mod:`graphmem.store.ops`). One event (``GraphMem.apply``) and a
bulk import of thousands (``GraphMem.apply_bulk``) go through exactly the same code.

After any change to the assertions of one (subject, topic, env) — a *slot* — the slot's timeline
is recomputed with :mod:`graphmem.core.temporal` as known at that event's record time and the
difference becomes ``HOLDS`` / ``RELATED`` segments: ended segments get ``superseded_at``, new
ones start at this record time. Stored segments are never rewritten otherwise, so ``known_at``
reads see the past exactly; a segment that is born and ended at the same record time was never
visible and is not kept.

:meth:`UnitOfWork.replay` re-applies a stored ledger event with its original sequence number and
record time (no new ledger entry), which is what makes ``rebuild`` deterministic.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, Callable, Iterable

from .queries import Call, Steps
from ..core.errors import NotFoundError, TemporalError, ValidationError
from ..core.models import ExpireEvent, MessageEvent, QuoteEvent, SetEvent, SourceEvent, WriteResult, parse_event
from ..core.temporal import Assertion, View, standing_before, timeline

__all__ = ["UnitOfWork", "row_to_assertion", "to_datetime"]

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
NO_MARKS = {"confirmed_at": None, "rejected_at": None, "retracted_at": None, "promoted_at": None,
            "withheld_at": None, "restored_at": None}
DELEGATES = "delegates"  # the topic on which a subject names who may confirm for them
Expander = Callable[[MessageEvent, list[Any]], list[Any]]


def to_datetime(value: Any) -> datetime | None:
    """A Neo4j DateTime, ISO text (from ``toString()``) or None as an aware UTC datetime."""
    if value is None:
        return None
    if isinstance(value, str):  # Cypher's toString(): drop a trailing zone name like [Europe/Paris]
        return datetime.fromisoformat(value.split("[", 1)[0]).astimezone(timezone.utc)
    if hasattr(value, "to_native"):
        value = value.to_native()
    native: datetime = value
    return native.astimezone(timezone.utc)


def row_to_assertion(row: dict[str, Any]) -> Assertion:
    return Assertion(
        uid=row["uid"], seq=row["seq"], kind=row["kind"], value=row["value"],
        valid_from=to_datetime(row["valid_from"]),  # type: ignore[arg-type]
        valid_to=to_datetime(row["valid_to"]), recorded_at=to_datetime(row["recorded_at"]),  # type: ignore[arg-type]
        authority=row.get("asserted_authority") or row["authority"], session=row["session"], status=row["status"],
        confirmed_at=to_datetime(row["confirmed_at"]), rejected_at=to_datetime(row["rejected_at"]),
        retracted_at=to_datetime(row["retracted_at"]), author=row["author"],
        said_at=to_datetime(row["said_at"]), quoted=bool(row["quoted"]), source=row["source"],
        is_entity=bool(row["is_entity"]), expires_at=to_datetime(row.get("expires_at")),
        promoted_at=to_datetime(row.get("promoted_at")), withheld_at=to_datetime(row.get("withheld_at")),
        restored_at=to_datetime(row.get("restored_at")),
    )


SlotKey = tuple[str, str, str]  # (subject, topic, env); env "" means no environment


def _slot_key(subject: str, topic: str, env: str | None) -> SlotKey:
    return (subject, topic, env or "")


def _key_text(key: SlotKey) -> str:
    return "\u241f".join(key)


@dataclass
class _Seg:
    seg: str
    fact: str
    valid_from: datetime
    valid_to: datetime | None
    conflict: bool
    recorded_at: datetime
    superseded_at: datetime | None = None
    stored: bool = False  # already in the database before this unit of work
    expires_at: datetime | None = None

    def key(self) -> tuple[Any, ...]:
        return (self.fact, self.valid_from, self.valid_to, self.conflict)


@dataclass
class _Slot:
    key: SlotKey
    assertions: list[Assertion] = field(default_factory=list)
    # Segments not yet over in record time: current ones, and those scheduled by a future expiry.
    live: list[_Seg] = field(default_factory=list)


@dataclass
class _Current:
    """The event being applied: its sequence number, record time, and what it produced."""

    seq: int
    at: datetime
    facts: list[str] = field(default_factory=list)
    drawn: list[dict[str, Any]] | None = None
    n_facts: int = 0
    n_episodes: int = 0


def _record_time(event: Any, last: datetime | None, now: datetime) -> datetime:
    """When the store learned the event (DESIGN.md §2); it never runs back."""
    if event.recorded_at is not None:
        if last is not None and event.recorded_at < last:
            raise TemporalError(
                f"recorded_at {event.recorded_at.isoformat()} is earlier than the ledger's last "
                f"record time {last.isoformat()}; record time only moves forward")
        recorded: datetime = event.recorded_at
        return recorded
    # A topic declaration is schema, not a fact: it does not move the clock.
    if event.op == "topic":
        return last if last is not None else EPOCH
    # A text received at `at` (a source, a message) is learned then: never before the ledger's
    # last event, never in the future. Anything else is learned now.
    at = getattr(event, "at", None) if event.op in ("source", "message") else None
    t = min(at, now) if at is not None else now
    return max(t, last) if last is not None else t


def _seg_id(fact: str, valid_from: datetime, valid_to: datetime | None, conflict: bool, at: datetime) -> str:
    """A segment's id from its content, so incremental writes and any batching of a replay agree."""
    text = f"{fact}|{valid_from.isoformat()}|{valid_to.isoformat() if valid_to else ''}|{conflict}|{at.isoformat()}"
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


def _wire(value: Any) -> Any:
    """Times as ISO 8601 text for the write queries (they call datetime() on it).

    The Python driver spends ~100 µs packing one temporal value and ~1 µs packing text, and a
    bulk batch carries several times per fact.
    """
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _wire(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_wire(v) for v in value]
    return value


def _event_id(event: Any) -> str | None:
    if event.op in ("source", "message"):
        return f"{event.op}:{event.id}"
    ident: str | None = event.id
    return ident


def _plain(event: Any) -> dict[str, Any]:
    """An extractor's event as a JSON-ready dict (extractors may return dicts or models)."""
    plain: dict[str, Any] = (event.model_dump(mode="json", exclude_none=True) if hasattr(event, "model_dump")
                             else json.loads(json.dumps(event, default=str)))
    return plain


class UnitOfWork:
    """Events applied in memory inside one write transaction, written by :meth:`flush`."""

    def __init__(self, tenant: str, now: datetime, expand: Expander | None = None) -> None:
        self.tenant, self.now, self.expand = tenant, now, expand
        self.seq = 0
        self.last: datetime | None = None
        self.last_hash: str | None = None  # the ledger's chain (graphmem.store.chain)
        self._sources: dict[str, dict[str, Any] | None] = {}
        self._topics: dict[str, str] = {}
        self._ttl: dict[str, int | None] = {}
        self._facts_by_ref: dict[str, tuple[str, SlotKey]] = {}
        self._fact_slot: dict[str, SlotKey] = {}
        self._slots: dict[SlotKey, _Slot] = {}
        self._seen_ids: dict[str, WriteResult] = {}
        self._checked_ids: set[str] = set()
        # pending writes
        self._w_sources: list[dict[str, Any]] = []
        self._recent_rows: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        self._w_topics: dict[str, tuple[str, int | None]] = {}
        self._w_facts: list[dict[str, Any]] = []
        self._w_marks: list[dict[str, Any]] = []
        self._w_quotes: list[dict[str, Any]] = []
        self._w_closes: list[dict[str, Any]] = []
        self._w_adds: dict[str, tuple[SlotKey, _Seg]] = {}
        self._w_supersedes: list[dict[str, Any]] = []
        self._w_events: list[dict[str, Any]] = []
        self._w_links: list[dict[str, Any]] = []
        self._w_expired: list[dict[str, Any]] = []
        self._w_source_marks: list[dict[str, Any]] = []
        self._w_working: list[dict[str, Any]] = []  # working-memory steps (graphmem.working.working)
        self._w_episodes: list[dict[str, Any]] = []
        self.cur: _Current | None = None
        self._dirty: dict[SlotKey, _Slot] = {}
        self._dirty_at: datetime | None = None
        self._touched: set[tuple[str, str]] = set()  # (subject, topic) whose summaries go stale
        self._has_summaries = True  # until the ledger lock says otherwise

    @classmethod
    def open(cls, tenant: str, now: datetime, expand: Expander | None = None) -> Steps["UnitOfWork"]:
        """Start a unit: lock the tenant's ledger head (first statement of the transaction)."""
        unit = cls(tenant, now, expand)
        head = (yield from unit._q("ledger/lock", token=uuid.uuid4().hex))[0]
        unit.seq = head["seq"]
        unit.last = to_datetime(head["last_recorded_at"])
        unit.last_hash = head.get("last_hash")
        unit._has_summaries = bool(head["has_summaries"])
        return unit

    # -- loading (each a batch query; results cached for the unit) ------------------------------

    def _q(self, query: str, /, **params: Any) -> Steps[list[dict[str, Any]]]:
        rows = yield Call(query, {"tenant": self.tenant, **{k: _wire(v) for k, v in params.items()}})
        return rows

    def prefetch(self, events: Iterable[Any]) -> Steps[None]:
        """Load in a few queries what a batch of events will need, instead of one query each."""
        events = list(events)
        slots: set[SlotKey] = set()
        sources: set[str] = set()
        ids: list[str] = []
        refs: set[str] = set()
        topics: set[str] = set()
        for e in events:
            if e.op in ("set", "revoke"):
                slots.add(_slot_key(e.subject, e.topic, e.env))
                topics.add(e.topic)
            if e.op == "quote":
                sources.update((e.source, e.quotes))
                for c in e.claims:
                    slots.add(_slot_key(c.subject, c.topic, c.env))
                    topics.add(c.topic)
            elif getattr(e, "source", None):
                sources.add(e.source)
            if e.op in ("source", "message"):  # a new source is looked up once to refuse a clashing id
                sources.add(e.id)
            if e.op in ("confirm", "reject", "retract") and e.ref:
                refs.add(e.ref)
            if e.op == "set" and e.ref:
                refs.add(e.ref)
            if _event_id(e) is not None:
                ids.append(_event_id(e))  # type: ignore[arg-type]
        yield from self._load_sources(sources)
        yield from self._load_topics(topics)
        yield from self._load_slots(slots)
        yield from self._load_refs(refs)
        ids = [i for i in ids if i not in self._checked_ids]
        self._checked_ids.update(ids)
        if ids:
            for r in (yield from self._q("load/event_ids", ids=ids)):
                facts = r["facts"] or []
                self._seen_ids[r["event_id"]] = WriteResult(seq=r["seq"], op=r["op"], facts=facts,
                                                            fact=facts[0] if facts else None, duplicate=True,
                                                            recorded_at=to_datetime(r["recorded_at"]))

    def _load_sources(self, uids: Iterable[str]) -> Steps[None]:
        missing = [u for u in set(uids) if u not in self._sources]
        if not missing:
            return
        for u in missing:
            self._sources[u] = None
        for r in (yield from self._q("load/sources", uids=missing)):
            self._sources[r["uid"]] = {**r, "at": to_datetime(r["at"]), "expires_at": to_datetime(r["expires_at"])}

    def _load_topics(self, names: Iterable[str]) -> Steps[None]:
        missing = [n for n in set(names) if n not in self._topics]
        if not missing:
            return
        for n in missing:
            self._topics[n] = "one"
        for r in (yield from self._q("load/topics", names=missing)):
            self._topics[r["name"]] = r["cardinality"] or "one"
            self._ttl[r["name"]] = r["ttl_seconds"]

    def _load_slots(self, keys: Iterable[SlotKey]) -> Steps[None]:
        missing = [k for k in set(keys) if k not in self._slots]
        if not missing:
            return
        params = [{"key": _key_text(k), "subject": k[0], "topic": k[1], "env": k[2]} for k in missing]
        by_text = {_key_text(k): k for k in missing}
        for k in missing:
            self._slots[k] = _Slot(k)
        for r in (yield from self._q("load/slots", slots=params)):
            key = by_text[r["key"]]
            self._slots[key].assertions.append(row_to_assertion(r))
            self._fact_slot[r["uid"]] = key
            if r["ref"]:
                self._facts_by_ref[r["ref"]] = (r["uid"], key)
        for r in (yield from self._q("load/open_segments", slots=params, after=self.last or EPOCH)):
            key = by_text[r["key"]]
            seg = _Seg(seg=r["seg"], fact=r["fact"], valid_from=to_datetime(r["valid_from"]),  # type: ignore[arg-type]
                       valid_to=to_datetime(r["valid_to"]), conflict=bool(r["conflict"]),
                       recorded_at=to_datetime(r["recorded_at"]), stored=True,  # type: ignore[arg-type]
                       superseded_at=to_datetime(r["superseded_at"]), expires_at=to_datetime(r["expires_at"]))
            self._slots[key].live.append(seg)
        for slot in (self._slots[k] for k in missing):
            slot.assertions.sort(key=lambda a: a.seq)

    def _load_refs(self, refs: Iterable[str]) -> Steps[None]:
        missing = [r for r in set(refs) if r not in self._facts_by_ref]
        if missing:
            for r in (yield from self._q("load/facts_by_ref", refs=missing)):
                key = _slot_key(r["subject"], r["topic"], r["env"])
                self._facts_by_ref[r["ref"]] = (r["uid"], key)
                self._fact_slot[r["uid"]] = key

    def _source(self, uid: str) -> Steps[dict[str, Any]]:
        yield from self._load_sources([uid])
        src = self._sources.get(uid)
        if src is None:
            raise NotFoundError(f"unknown source {uid!r}: register it with a 'source' event first",
                                kind="source", id=uid)
        return src

    def _slot(self, key: SlotKey) -> Steps[_Slot]:
        yield from self._load_slots([key])
        yield from self._load_topics([key[1]])
        return self._slots[key]

    # -- applying --------------------------------------------------------------------------------

    def apply(self, event: Any) -> Steps[WriteResult]:
        """Apply one validated event as the ledger's next entry (in memory until :meth:`flush`)."""
        event_id = _event_id(event)
        if event_id is not None:
            if event_id not in self._checked_ids:
                yield from self.prefetch([event])
            if event_id in self._seen_ids:
                return self._seen_ids[event_id]
        at = _record_time(event, self.last, self.now)
        self.cur = _Current(seq=self.seq + 1, at=at)
        yield from self._dispatch(event)
        self.seq, self.last = self.cur.seq, at
        stored = event.payload()
        if self.cur.drawn is not None:
            stored["drawn"] = self.cur.drawn
        self._w_events.append({"seq": self.cur.seq, "op": event.op, "actor": event.actor, "reason": event.reason,
                               "recorded_at": at, "event_id": event_id, "facts": self.cur.facts,
                               "payload": json.dumps(stored, ensure_ascii=False, sort_keys=True)})
        self._w_links.extend({"seq": self.cur.seq, "fact": f} for f in self.cur.facts)
        result = WriteResult(seq=self.cur.seq, op=event.op, recorded_at=at, facts=list(self.cur.facts),
                             fact=self.cur.facts[0] if self.cur.facts else None)
        if event_id is not None:
            self._seen_ids[event_id] = result.model_copy(update={"duplicate": True})
        return result

    def replay(self, row: dict[str, Any]) -> Steps[None]:
        """Re-apply one stored ledger event with its original seq and record time.

        Tombstones (erased events, the erase itself) carry no content and change nothing.
        """
        payload = json.loads(row["payload"])
        if payload.get("erased") or payload.get("op") == "erase":
            return
        event = parse_event(payload)
        self.cur = _Current(seq=row["seq"], at=to_datetime(row["recorded_at"]))  # type: ignore[arg-type]
        yield from self._dispatch(event)
        self._w_links.extend({"seq": self.cur.seq, "fact": f} for f in self.cur.facts)

    def _dispatch(self, event: Any) -> Steps[None]:
        yield from getattr(self, "_op_" + event.op)(event)

    def _op_source(self, e: SourceEvent) -> Steps[None]:
        yield from self._load_sources([e.id])
        if self._sources.get(e.id) is not None:
            raise ValidationError(f"source {e.id!r} already exists with other content; give the new one another id")
        src = {"uid": e.id, "kind": e.kind, "at": e.at, "text": e.text, "author": e.author,
               "expires_at": getattr(e, "expires_at", None)}
        self._sources[e.id] = src
        self._w_sources.append({**src, "recorded_at": self.cur.at, "seq": self.cur.seq})  # type: ignore[union-attr]

    def _op_topic(self, e: Any) -> Steps[None]:
        yield from self._load_topics([e.name])
        self._topics[e.name] = e.cardinality
        self._ttl[e.name] = e.ttl_seconds
        self._w_topics[e.name] = (e.cardinality, e.ttl_seconds)
        for key, slot in self._slots.items():  # a changed cardinality changes the slot's answers
            if key[1] == e.name:
                self._refresh(slot)

    def _op_set(self, e: SetEvent) -> Steps[None]:
        src = (yield from self._source(e.source)) if e.source else None
        valid_from = e.valid_from or (src["at"] if src else None) or self.cur.at  # type: ignore[union-attr]
        if e.valid_to is not None and e.valid_to <= valid_from:
            raise TemporalError(f"valid_to {e.valid_to.isoformat()} is not after valid_from {valid_from.isoformat()}")
        if e.ref:
            yield from self._load_refs([e.ref])
            if e.ref in self._facts_by_ref:
                raise ValidationError(f"ref {e.ref!r} is already in use in this tenant")
        is_entity = e.object is not None
        yield from self._load_topics([e.topic])  # its TTL, if any
        yield from self._create(kind="set", subject=e.subject, topic=e.topic, env=e.env,
                     value=e.object if is_entity else e.value, is_entity=is_entity,
                     valid_from=valid_from, valid_to=e.valid_to, authority=e.authority,
                     session=e.session, status=e.status, confidence=e.confidence, ref=e.ref,
                     author=(src["author"] if src else None) or e.actor,
                     said_at=src["at"] if src else self.cur.at, quoted=False,  # type: ignore[union-attr]
                     source=e.source, evidence=e.evidence,
                     expires_at=self._expiry(e.topic, e.expires_at, src))

    def _op_revoke(self, e: Any) -> Steps[None]:
        src = (yield from self._source(e.source)) if e.source else None
        effective = e.effective or (src["at"] if src else None) or self.cur.at  # type: ignore[union-attr]
        yield from self._create(kind="revoke", subject=e.subject, topic=e.topic, env=e.env, value=e.value,
                     is_entity=False, valid_from=effective, valid_to=None, authority=e.authority,
                     session=e.session, status="confirmed", confidence=None, ref=None,
                     author=(src["author"] if src else None) or e.actor,
                     said_at=src["at"] if src else self.cur.at, quoted=False,  # type: ignore[union-attr]
                     source=e.source, evidence=None, expires_at=None)

    def _op_quote(self, e: QuoteEvent) -> Steps[None]:
        yield from self._source(e.source)
        old = yield from self._source(e.quotes)
        self._w_quotes.append({"source": e.source, "quotes": e.quotes, "recorded_at": self.cur.at,  # type: ignore[union-attr]
                               "seq": self.cur.seq})  # type: ignore[union-attr]
        for c in e.claims:
            is_entity = c.object is not None
            yield from self._load_topics([c.topic])
            # The claim is the old document's: dated at its time, by its author, from it.
            yield from self._create(kind="set", subject=c.subject, topic=c.topic, env=c.env,
                         value=c.object if is_entity else c.value, is_entity=is_entity,
                         valid_from=old["at"], valid_to=None, authority="L1", session=None,
                         status="confirmed", confidence=None, ref=None, author=old["author"],
                         said_at=old["at"], quoted=True, source=e.quotes, evidence=None,
                         expires_at=self._expiry(c.topic, None, old))

    def _expiry(self, topic: str, given: datetime | None, src: dict[str, Any] | None) -> datetime | None:
        """The earliest of: the event's expires_at, its source's, and the topic's TTL from now."""
        from datetime import timedelta

        ttl = self._ttl.get(topic)
        candidates = [given, src.get("expires_at") if src else None,
                      self.cur.at + timedelta(seconds=ttl) if ttl else None]  # type: ignore[union-attr]
        found = [c for c in candidates if c is not None]
        return min(found) if found else None

    def _op_expire(self, e: ExpireEvent) -> Steps[None]:
        """Record that facts reached their expiry and recompute their slots (sweeper bookkeeping)."""
        for uid in e.facts:
            if uid not in self._fact_slot:
                for r in (yield from self._q("load/facts_by_uid", uids=[uid])):
                    self._fact_slot[r["uid"]] = _slot_key(r["subject"], r["topic"], r["env"])
            if uid not in self._fact_slot:
                raise NotFoundError(f"unknown fact {uid!r}", kind="fact", id=uid)
            slot = yield from self._slot(self._fact_slot[uid])
            self._w_expired.append({"uid": uid, "at": self.cur.at})  # type: ignore[union-attr]
            self.cur.facts.append(uid)  # type: ignore[union-attr]
            self._refresh(slot)

    def _mark(self, e: Any, field_name: str) -> Steps[None]:
        if e.ref:
            yield from self._load_refs([e.ref])
            found = self._facts_by_ref.get(e.ref)
            uid = found[0] if found else None
        else:
            uid = e.fact
            if uid not in self._fact_slot:
                for r in (yield from self._q("load/facts_by_uid", uids=[uid])):
                    self._fact_slot[r["uid"]] = _slot_key(r["subject"], r["topic"], r["env"])
        if uid is None or uid not in self._fact_slot:
            raise NotFoundError(f"unknown ref {e.ref!r}" if e.ref else f"unknown fact {e.fact!r}",
                                kind="ref" if e.ref else "fact", id=e.ref or e.fact)
        slot = yield from self._slot(self._fact_slot[uid])
        i, a = next((i, a) for i, a in enumerate(slot.assertions) if a.uid == uid)
        if a.retracted_at is not None or a.rejected_at is not None:
            raise ValidationError(f"{e.ref or e.fact!r} was already withdrawn")
        if field_name in ("confirmed_at", "rejected_at") and (a.status != "candidate" or a.confirmed_at is not None):
            raise ValidationError(f"{e.ref or e.fact!r} is not a candidate; only candidates are confirmed or rejected")
        at = self.cur.at  # type: ignore[union-attr]
        changes: dict[str, Any] = {field_name: at}
        if field_name == "confirmed_at" and a.authority == "L2" \
                and (yield from self._speaks_for(e.actor, slot.key[0], at)):
            changes["promoted_at"] = at  # the subject's own confirmation: L1 from now on
        slot.assertions[i] = replace(a, **changes)
        self._w_marks.append({**NO_MARKS, "uid": uid, **changes})
        self.cur.facts.append(uid)  # type: ignore[union-attr]
        self._refresh(slot)

    def _speaks_for(self, actor: str | None, subject: str, at: datetime) -> Steps[bool]:
        """Is ``actor`` the subject, or someone the subject delegated? A delegation is the subject's
        own statement on its ``delegates`` topic (a fact, so it has validity and history too)."""
        if actor is None:
            return False
        if actor == subject:
            return True
        slot = yield from self._slot((subject, DELEGATES, ""))
        from ..core.temporal import resolve_many
        return any(r.value == actor and r.primary is not None and r.primary.author == subject
                   for r in resolve_many(slot.assertions, at, View(known_at=at)))

    def _hold(self, uids: Iterable[str], field_name: str) -> Steps[None]:
        """Hold facts back for an erase request (``withheld_at``), or give them back (``restored_at``)."""
        at = self.cur.at  # type: ignore[union-attr]
        for uid in uids:
            if uid not in self._fact_slot:
                for r in (yield from self._q("load/facts_by_uid", uids=[uid])):
                    self._fact_slot[r["uid"]] = _slot_key(r["subject"], r["topic"], r["env"])
            if uid not in self._fact_slot:
                continue  # already erased by another request: nothing to hold back
            slot = yield from self._slot(self._fact_slot[uid])
            i, a = next((i, a) for i, a in enumerate(slot.assertions) if a.uid == uid)
            changes: dict[str, Any] = {field_name: at}
            slot.assertions[i] = replace(a, **changes)
            self._w_marks.append({**NO_MARKS, "uid": uid, field_name: at})
            self.cur.facts.append(uid)  # type: ignore[union-attr]
            self._refresh(slot)

    def _op_erase_request(self, e: Any) -> Steps[None]:
        yield from self._hold(e.facts, "withheld_at")
        self._w_source_marks.extend({"uid": u, "withheld_at": self.cur.at, "restored_at": None}  # type: ignore[union-attr]
                                    for u in e.sources)

    def _op_erase_cancel(self, e: Any) -> Steps[None]:
        rows = yield from self._q("governance/erase_request", request=e.request, before=self.cur.seq)  # type: ignore[union-attr]
        if not rows or rows[0]["op"] != "erase_request":
            raise NotFoundError(f"unknown erase request {e.request!r}", kind="erase request",
                                id=e.request)
        if rows[0]["closed"]:
            raise ValidationError(f"erase request {e.request!r} was already {rows[0]['closed']}")
        payload = json.loads(rows[0]["payload"])
        yield from self._hold(payload.get("facts", []), "restored_at")
        self._w_source_marks.extend({"uid": u, "withheld_at": None, "restored_at": self.cur.at}  # type: ignore[union-attr]
                                    for u in payload.get("sources", []))

    def _op_episode(self, e: Any) -> Steps[None]:
        """An episode (who did what, where, when): a record of its own beside the facts, from its
        source; it supersedes nothing and takes no part in ``as_of``."""
        src = yield from self._source(e.source)
        cur = self.cur
        assert cur is not None
        cur.n_episodes += 1
        self._w_episodes.append({"uid": f"ep{cur.seq}.{cur.n_episodes}", "seq": cur.seq, "who": e.who,
                                 "what": e.what, "where": e.where, "start": e.start, "end": e.end,
                                 "evidence": e.evidence, "source": e.source, "said_at": src["at"],
                                 "planned": e.planned,
                                 "recorded_at": cur.at})

    def _op_playbook(self, e: Any) -> Steps[None]:
        """A playbook transition: in the ledger for audit and the chain; no fact changes."""
        return
        yield

    def _op_working(self, e: Any) -> Steps[None]:
        """A working-memory step: its own nodes (graphmem.working.working), no fact changes."""
        from ..working.working_store import check_detail
        check_detail(e.action, e.detail)
        self._w_working.append({"seq": self.cur.seq, "at": self.cur.at, "action": e.action,  # type: ignore[union-attr]
                                "session": e.session, "detail": e.detail, "actor": e.actor})
        return
        yield

    def _op_confirm(self, e: Any) -> Steps[None]:
        yield from self._mark(e, "confirmed_at")

    def _op_reject(self, e: Any) -> Steps[None]:
        yield from self._mark(e, "rejected_at")

    def _op_retract(self, e: Any) -> Steps[None]:
        yield from self._mark(e, "retracted_at")

    def _op_message(self, e: MessageEvent) -> Steps[None]:
        """Register the message as a source, then apply what the extractor draws from it.

        On replay the drawn events come from the ledger (``e.drawn``), so a rebuild never depends
        on the extractor's version.
        """
        yield from self._op_source(SourceEvent(op="source", id=e.id, kind=e.kind, at=e.at, text=e.text, author=e.speaker))
        # Where and about whom it was said: recall scopes and ranks messages by them.
        self._w_sources[-1].update(session=e.session, about=e.about)
        if e.drawn is None:
            if self.expand is None:
                raise ValidationError("a 'message' event needs an extractor; use GraphMem.ingest")
            context = yield from self._recent([s for s in (e.speaker, e.about) if s])
            drawn = [_plain(d) for d in self.expand(e, context)]
        else:
            drawn = e.drawn
        self.cur.drawn = drawn  # type: ignore[union-attr]
        for d in drawn:
            ev = parse_event(d if d.get("op") == "source" else {**d, "source": d.get("source", e.id)})
            if ev.op in ("message", "topic") or ev.recorded_at is not None or ev.tenant is not None:
                raise ValidationError(f"an extractor may not draw {ev.op!r} events or set recorded_at/tenant")
            if e.drawn_as == "inferred" and ev.op in ("set", "revoke"):  # not a person's own words
                ev = ev.model_copy(update={"authority": "L2", **({"status": "candidate"} if ev.op == "set" else {})})
            yield from self._dispatch(ev)

    def _recent(self, subjects: list[str]) -> Steps[list[Any]]:
        """The latest facts about these subjects, stored or made earlier in this unit."""
        from ..extract import PriorFact

        # Within one unit the stored facts change only through this unit's own writes (``pending``
        # below), so the stored part is read once per set of subjects: a bulk of messages by the
        # same speakers costs one query, not one per message.
        key = tuple(subjects)
        if key not in self._recent_rows:
            self._recent_rows[key] = yield from self._q("fact/recent", subjects=subjects, limit=50)
        rows = self._recent_rows[key]
        stored = [PriorFact(uid=r["uid"], subject=r["subject"], topic=r["topic"], env=r["env"] or None,
                            value=r["value"], valid_from=to_datetime(r["valid_from"]),  # type: ignore[arg-type]
                            valid_to=to_datetime(r["valid_to"]), author=r["author"], seq=r["seq"]) for r in rows]
        withdrawn = {m["uid"] for m in self._w_marks if m["retracted_at"] or m["rejected_at"]}
        pending = [PriorFact(uid=p["uid"], subject=p["subject"], topic=p["topic"], env=p["env"] or None,
                             value=p["value"], valid_from=p["valid_from"], valid_to=p["valid_to"],
                             author=p["author"], seq=p["seq"])
                   for p in self._w_facts if p["subject"] in subjects and p["kind"] == "set" and not p["quoted"]]
        return sorted([p for p in stored + pending if p.uid not in withdrawn], key=lambda p: -p.seq)

    # -- projection ------------------------------------------------------------------------------

    def _create(self, *, subject: str, topic: str, env: str | None, **props: Any) -> Steps[None]:
        cur = self.cur
        assert cur is not None
        cur.n_facts += 1
        uid = f"f{cur.seq}" if cur.n_facts == 1 else f"f{cur.seq}.{cur.n_facts}"
        key = _slot_key(subject, topic, env)
        slot = yield from self._slot(key)
        row = {"uid": uid, "seq": cur.seq, "subject": subject, "topic": topic, "env": key[2],
               "recorded_at": cur.at, **props}
        self._w_facts.append(row)
        assertion = row_to_assertion({**row, "confirmed_at": None, "rejected_at": None, "retracted_at": None})
        slot.assertions.append(assertion)
        self._fact_slot[uid] = key
        if props.get("ref"):
            self._facts_by_ref[props["ref"]] = (uid, key)
        cur.facts.append(uid)
        self._refresh(slot)
        if not assertion.quoted and not assertion.is_exception:  # quotes never supersede; exceptions overlay
            before = standing_before(slot.assertions, assertion.valid_from, View(known_at=cur.at), subject, exclude=uid)
            self._w_supersedes.extend({"new": uid, "old": old.uid, "recorded_at": cur.at, "seq": cur.seq}
                                      for old in before.winners if old.kind == "set")

    def _refresh(self, slot: _Slot) -> None:
        """Mark the slot's timeline for recomputation as known at this event's record time.

        Segments born and ended at one record time are never visible, so several events on one
        slot at the same record time (a bulk import) need one recomputation, not one each: the
        work is deferred until the record time moves on or the unit flushes.
        """
        at = self.cur.at  # type: ignore[union-attr]
        self._touched.add((slot.key[0], slot.key[1]))
        if self._dirty and self._dirty_at != at:
            self._settle()
        self._dirty[slot.key] = slot
        self._dirty_at = at

    def _settle(self) -> None:
        for slot in self._dirty.values():
            self._recompute(slot, self._dirty_at)  # type: ignore[arg-type]
        self._dirty.clear()

    def _recompute(self, slot: _Slot, at: datetime) -> None:
        """Recompute the slot's timeline as known at ``at`` and from then on; end, reschedule and
        start segments for the difference.

        Expiry is part of the timeline (DESIGN.md §5): from a fact's ``expires_at`` on it takes no
        part, as if retracted then. So the timeline is computed as known at ``at`` and again at each
        later ``expires_at`` of the slot, and a segment that an expiry ends (or starts — the value
        that resumes) carries that record time now. Reads then agree whether or not a sweeper ever
        ran, and a later event only reschedules what lies after its own record time.
        """
        subject, topic, env = slot.key
        many = self._topics.get(topic, "one") == "many"
        expiry = {a.uid: a.expires_at for a in slot.assertions}
        times = [at] + sorted({e for e in expiry.values() if e is not None and e > at})
        runs: list[list[Any]] = []  # [segment of the timeline, from, until]
        running: dict[tuple[Any, ...], list[Any]] = {}
        for tau in times:
            wanted = {x.key(): x for x in timeline(slot.assertions, View(known_at=tau), subject, many=many)}
            for key in [k for k in running if k not in wanted]:
                running.pop(key)[2] = tau
            for key, x in wanted.items():
                if key not in running:
                    running[key] = [x, tau, None]
                    runs.append(running[key])
        desired = {(r[0].key(), r[1]): r for r in runs}
        keep: list[_Seg] = []
        for seg in slot.live:
            if seg.superseded_at is not None and seg.superseded_at <= at:
                continue  # already over in record time: history, never touched again
            run = desired.pop((seg.key(), max(seg.recorded_at, at)), None)
            if run is not None and (seg.recorded_at <= at or run[1] == seg.recorded_at):
                self._reschedule(slot, seg, run[2])
                keep.append(seg)
            else:  # no longer wanted: end it now (a segment not yet begun is dropped)
                self._reschedule(slot, seg, max(at, seg.recorded_at))
        for (_key, start), (x, _start, until) in sorted(desired.items(), key=lambda kv: kv[0][1]):
            seg = _Seg(seg=_seg_id(x.fact, x.valid_from, x.valid_to, x.conflict, start), fact=x.fact,
                       valid_from=x.valid_from, valid_to=x.valid_to, conflict=x.conflict, recorded_at=start,
                       superseded_at=until, expires_at=expiry.get(x.fact))
            keep.append(seg)
            self._w_adds[seg.seg] = (slot.key, seg)
        slot.live = keep

    def _reschedule(self, slot: _Slot, seg: _Seg, until: datetime | None) -> None:
        """Give a segment a new end in record time; an end at or before its start deletes it."""
        if until == seg.superseded_at:
            return
        seg.superseded_at = until
        gone = until is not None and until <= seg.recorded_at
        if seg.stored:
            self._w_closes.append({"subject": slot.key[0], "seg": seg.seg, "at": until})
        elif gone:
            self._w_adds.pop(seg.seg, None)

    # -- writing ---------------------------------------------------------------------------------

    def flush(self, *, append: bool = True) -> Steps[None]:
        """Write everything this unit did, in dependency order; then the ledger entries."""
        self._settle()
        if self._w_sources:
            yield from self._q("write/sources", sources=self._w_sources)
        if self._w_topics:
            yield from self._q("write/topics", topics=[{"name": n, "cardinality": c, "ttl_seconds": ttl}
                                                       for n, (c, ttl) in self._w_topics.items()])
        if self._w_facts:
            yield from self._q("write/facts", facts=self._w_facts)
        if self._w_marks:
            yield from self._q("write/marks", marks=self._w_marks)
        if self._w_expired:
            yield from self._q("write/expire", marks=self._w_expired)
        if self._w_source_marks:
            yield from self._q("write/source_marks", marks=self._w_source_marks)
        if self._w_quotes:
            yield from self._q("write/quotes", quotes=self._w_quotes)
        if self._w_episodes:
            yield from self._q("write/episodes", episodes=self._w_episodes)
        if self._w_closes:
            yield from self._q("write/close_segments", closes=self._w_closes)
        if self._w_adds:
            yield from self._q("write/add_segments", segments=[
                {"seg": s.seg, "subject": key[0], "topic": key[1], "env": key[2], "fact": s.fact,
                 "valid_from": s.valid_from, "valid_to": s.valid_to, "conflict": s.conflict,
                 "recorded_at": s.recorded_at, "superseded_at": s.superseded_at, "expires_at": s.expires_at}
                for key, s in self._w_adds.values()])
        if self._w_supersedes:
            yield from self._q("write/supersedes", pairs=self._w_supersedes)
        if append and self._w_events:
            from .chain import digest, link
            for v in self._w_events:
                v["digest"] = digest(v["seq"], v["op"], v["recorded_at"], v["actor"], v["reason"], v["payload"])
                v["hash"] = self.last_hash = link(self.last_hash, v["digest"])
            yield from self._q("write/events", events=self._w_events, seq=self.seq, last_recorded_at=self.last,
                               last_hash=self.last_hash)  # links each event to its facts as well
        elif self._w_links:  # a replay: the events are in the ledger already
            yield from self._q("write/links", links=self._w_links)
        if self._w_working:
            from ..working.working_store import flush_working
            yield from flush_working(self._q, self._w_working)
        if append and self._touched and self._has_summaries:
            yield from self._q("write/summaries_stale", seq=self.seq,
                               slots=[{"subject": s, "topic": t} for s, t in sorted(self._touched)])
