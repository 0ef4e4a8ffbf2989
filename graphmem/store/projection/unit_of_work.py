"""The unit of work: events applied in memory inside one write transaction, written at the end.

A :class:`UnitOfWork` locks the tenant's ledger head (so a tenant's events are totally ordered and
record time never runs back), gives each event its sequence number and record time, applies it
with its op's handler (:mod:`.handlers`) to the slots it touches (:mod:`.slots`), and
:meth:`UnitOfWork.flush` writes everything with a few ``UNWIND`` queries (:mod:`.buffer`). It
does no I/O itself: its methods are generators that yield :class:`~graphmem.store.queries.Call`
and receive rows, so the sync and the async client run the very same code
(:mod:`graphmem.store.ops`). One event and a bulk import of thousands go the same way.

:meth:`UnitOfWork.replay` re-applies a stored ledger event with its original sequence number and
record time (no new ledger entry), which is what makes ``rebuild`` deterministic.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Iterable

from ..queries import Call, Steps
from .buffer import LedgerHead, WriteBuffer
from .context import Current, Work
from .handlers import dispatch
from .slots import SlotCache, SlotKey, slot_key
from .timelines import Timelines
from .values import EPOCH, Expander, event_id, to_datetime, to_time, wire
from ...core.errors import TemporalError
from ...core.tenant_key import tenant_key
from ...core.models import SetEvent, WriteResult, parse_event
from ...core.topics import BUILTIN_MANY, builtin_declaration

__all__ = ["CLOCK_SKEW", "Sealed", "UnitOfWork", "record_time", "tenant_query"]


# How far an explicit ``recorded_at`` may run ahead of the server's clock (two machines' clocks
# never agree exactly); it is then taken as the server's now. Further ahead is refused.
CLOCK_SKEW = timedelta(seconds=5)


def record_time(event: Any, last: datetime | None, now: datetime, server_now: datetime | None = None) -> datetime:
    """When the store learned the event (docs/design.md §2); it never runs back, and never runs ahead
    of the server's clock (``server_now``, read with the ledger lock; docs/governance.md).

    Record time only moves forward, so one write stamped in the future would hide every later
    write of the tenant from "now" until the future came: the client's clock (``now``) counts
    only up to the server's, an explicit ``recorded_at`` up to CLOCK_SKEW ahead of it is taken as
    the server's now, and one further ahead is refused. A past ``recorded_at`` (an import) stays."""
    if server_now is not None:
        now = min(now, server_now)
    if event.recorded_at is not None:
        if last is not None and event.recorded_at < last:
            raise TemporalError(
                f"recorded_at {event.recorded_at.isoformat()} is earlier than the ledger's last "
                f"record time {last.isoformat()}; record time only moves forward")
        recorded: datetime = event.recorded_at
        if server_now is not None and recorded > server_now:
            if recorded > server_now + CLOCK_SKEW:
                raise TemporalError(
                    f"recorded_at {recorded.isoformat()} is in the future: the server's clock says "
                    f"{server_now.isoformat()} (at most {CLOCK_SKEW.total_seconds():g} s of clock skew is "
                    "allowed); record time is when the store learned the event, so leave it out")
            recorded = max(server_now, last) if last is not None else server_now
        return recorded
    # A topic declaration is schema, not a fact: it does not move the clock.
    if event.op == "topic":
        return last if last is not None else EPOCH
    # A text received at `at` (a source, a message) is learned then: never before the ledger's
    # last event, never in the future. Anything else is learned now.
    at = getattr(event, "at", None) if event.op in ("source", "message") else None
    t = min(at, now) if at is not None else now
    return max(t, last) if last is not None else t


def _needs(events: list[Any]) -> tuple[set[SlotKey], set[str], set[str], set[str]]:
    """What a batch of events will read: (slots, sources, fact refs, topics)."""
    slots: set[SlotKey] = set()
    sources: set[str] = set()
    refs: set[str] = set()
    topics: set[str] = set()
    for e in events:
        if e.op in ("set", "revoke"):
            slots.add(slot_key(e.subject, e.topic, e.env))
            topics.add(e.topic)
        if e.op == "quote":
            sources.update((e.source, e.quotes))
            for c in e.claims:
                slots.add(slot_key(c.subject, c.topic, c.env))
                topics.add(c.topic)
        elif getattr(e, "source", None):
            sources.add(e.source)
        if e.op in ("source", "message"):  # a new source is looked up once to refuse a clashing id
            sources.add(e.id)
        if e.op in ("confirm", "reject", "retract", "set") and e.ref:
            refs.add(e.ref)
    return slots, sources, refs, topics


def tenant_query(tenant: str, name: str, /, **params: Any) -> Steps[list[dict[str, Any]]]:
    """One named query for ``tenant``, its values put on the wire (:func:`.values.wire`)."""
    rows = yield Call(name, {"tenant": tenant, **{k: wire(v) for k, v in params.items()}})
    return rows


class Sealed:
    """A unit of work's writes, sealed ahead of their transaction: the ledger head they were
    applied after (``start``: seq, last hash, whether summaries exist) and the writes, chained
    onto the head they leave, as the calls the transaction will send.

    The calls are built here, ahead, while the batch behind commits, not inside the transaction:
    there every millisecond the client spends building rows and putting their times on the wire is
    a millisecond the server waits between two queries. A profile of a bulk load (py-spy) had the
    transaction's thread doing that for ~16 % of its time, the rest waiting on the server. The
    writes never read what a write returns (:meth:`WriteBuffer.write`), so they are the same
    calls whenever they are built."""

    def __init__(self, tenant: str, start: tuple[int, str | None, bool], buffer: WriteBuffer,
                 head: LedgerHead) -> None:
        self.tenant, self.start = tenant, start
        self.calls = _calls(buffer.write(self.query, head, append=True))

    def query(self, name: str, /, **params: Any) -> Steps[list[dict[str, Any]]]:
        return (yield from tenant_query(self.tenant, name, **params))

    def commit(self) -> Steps[bool]:
        """In the transaction: lock the ledger head and, if it is still the one the events were
        applied after, send the writes; False (nothing written) if another writer came between."""
        head = (yield from self.query("ledger/lock", token=uuid.uuid4().hex))[0]
        if LedgerHead.from_row(head).key() != self.start:
            return False
        for call in self.calls:
            yield call
        return True


def _calls(writes: Steps[None]) -> list[Call]:
    """The calls a run of writes yields, gathered without running them (each is answered with no
    rows: a write's rows are never read)."""
    calls: list[Call] = []
    try:
        call = next(writes)
        while True:
            calls.append(call)
            call = writes.send([])
    except StopIteration:
        return calls


class UnitOfWork:
    """Events applied in memory inside one write transaction, written by :meth:`flush`."""

    def __init__(self, tenant: str, now: datetime, expand: Expander | None = None) -> None:
        self.tenant, self.now = tenant, now
        self.head = LedgerHead()
        self.cache = SlotCache(self.query)
        self.buffer = WriteBuffer(tenant_key(tenant))
        self.work = Work(self.query, self.cache, self.buffer, Timelines(self.cache, self.buffer), expand)
        self._seen_ids: dict[str, WriteResult] = {}  # event id -> its result, for a retried event
        self._checked_ids: set[str] = set()
        self.start: tuple[int, str | None, bool] = (0, None, True)  # the ledger head it began after

    @classmethod
    def open(cls, tenant: str, now: datetime, expand: Expander | None = None) -> Steps["UnitOfWork"]:
        """Start a unit: lock the tenant's ledger head (first statement of the transaction)."""
        unit = cls(tenant, now, expand)
        unit._take_head((yield from unit.query("ledger/lock", token=uuid.uuid4().hex))[0])
        return unit

    @classmethod
    def ahead(cls, tenant: str, now: datetime, expand: Expander | None = None) -> Steps["UnitOfWork"]:
        """A unit that reads the ledger head without locking it: its events are applied ahead of
        their transaction, which :meth:`Sealed.commit` checks (graphmem.store.pipeline)."""
        unit = cls(tenant, now, expand)
        unit._take_head((yield from unit.query("ledger/peek"))[0])
        return unit

    def _take_head(self, row: dict[str, Any]) -> None:
        self.head = LedgerHead.from_row(row)
        self.cache.last = self.head.last
        self.start = self.head.key()

    def next(self, now: datetime) -> "UnitOfWork":
        """The unit for a bulk load's next batch, carrying on from this one's state: its slots,
        sources, topics and ids as this unit left them (so the next batch's rules need not wait for
        this one's commit to read them), a fresh write buffer. The segments this unit wrote count as
        stored from now on, as they will be once :meth:`seal`'s writes commit."""
        unit = UnitOfWork(self.tenant, now, self.work.expand)
        unit.head, unit.cache = replace(self.head), self.cache
        if unit.head.server_now is not None and now > self.now:  # the server's clock moved on as ours did
            unit.head.server_now += now - self.now
        unit.cache.query = unit.query
        unit.work = Work(unit.query, unit.cache, unit.buffer, Timelines(unit.cache, unit.buffer), self.work.expand)
        unit._seen_ids, unit._checked_ids = self._seen_ids, self._checked_ids
        unit.start = unit.head.key()
        for key in {key for key, _seg in self.buffer.adds.values()}:
            slot = self.cache.slots[key]
            slot.live = [s if s.stored else replace(s, stored=True) for s in slot.live]
        return unit

    def held(self) -> int:
        """How many slots, facts, sources and event ids this unit holds in memory."""
        c = self.cache
        return len(c.slots) + len(c.fact_slot) + len(c.sources) + len(self._checked_ids)

    def seal(self) -> "Sealed":
        """Settle the timelines and chain the ledger entries: the unit's writes, ready for
        :meth:`Sealed.commit` in a transaction of their own. No I/O."""
        self.work.timelines.settle()
        return Sealed(self.tenant, self.start, self.buffer, self.buffer.seal(self.head))

    @property
    def seq(self) -> int:
        """The ledger's last sequence number, as this unit has moved it."""
        return self.head.seq

    @seq.setter
    def seq(self, value: int) -> None:
        self.head.seq = value

    @property
    def last(self) -> datetime | None:
        """The ledger's last record time, as this unit has moved it."""
        return self.head.last

    @last.setter
    def last(self, value: datetime | None) -> None:
        self.head.last = self.cache.last = value

    def learned_at(self, now: datetime) -> datetime:
        """The record time of an entry written now that is not an event (an erase's tombstone):
        the client's clock, bounded by the server's, never before the ledger's last."""
        t = min(now, self.head.server_now) if self.head.server_now is not None else now
        return max(t, self.last) if self.last is not None else t

    @property
    def last_hash(self) -> str | None:
        """The ledger chain's last hash (graphmem.store.chain), after :meth:`flush` the new one."""
        return self.head.last_hash

    def query(self, name: str, /, **params: Any) -> Steps[list[dict[str, Any]]]:
        """Run one named query for the unit's tenant, inside its transaction."""
        return (yield from tenant_query(self.tenant, name, **params))

    def prefetch(self, events: Iterable[Any]) -> Steps[None]:
        """Load in a few queries what a batch of events will need, instead of one query each."""
        events = list(events)
        slots, sources, refs, topics = _needs(events)
        yield from self.cache.load_sources(sources)
        yield from self.cache.load_topics(topics)
        yield from self.cache.load_slots(slots)
        yield from self.cache.load_refs(refs)
        ids = [i for i in (event_id(e) for e in events) if i is not None and i not in self._checked_ids]
        self._checked_ids.update(ids)
        if ids:
            for r in (yield from self.query("load/event_ids", ids=ids)):
                facts = r["facts"] or []
                self._seen_ids[r["event_id"]] = WriteResult(seq=r["seq"], op=r["op"], facts=facts,
                                                            fact=facts[0] if facts else None, duplicate=True,
                                                            recorded_at=to_datetime(r["recorded_at"]))

    def apply(self, event: Any) -> Steps[WriteResult]:
        """Apply one validated event as the ledger's next entry (in memory until :meth:`flush`)."""
        ident = event_id(event)
        if ident is not None:
            if ident not in self._checked_ids:
                yield from self.prefetch([event])
            if ident in self._seen_ids:
                return self._seen_ids[ident]
        if isinstance(event, SetEvent) and event.topic in BUILTIN_MANY:
            yield from self._declare_builtin(event)
        at = record_time(event, self.last, self.now, self.head.server_now)
        cur = Current(seq=self.seq + 1, at=at)
        yield from dispatch(self.work, cur, event)
        self.seq, self.last = cur.seq, at
        stored = event.payload()
        if cur.drawn is not None:
            stored["drawn"] = cur.drawn
        self.buffer.events.append({"seq": cur.seq, "op": event.op, "actor": event.actor, "reason": event.reason,
                                   "recorded_at": at, "event_id": ident, "facts": cur.facts,
                                   "payload": json.dumps(stored, ensure_ascii=False, sort_keys=True)})
        self.buffer.links.extend({"seq": cur.seq, "fact": f} for f in cur.facts)
        result = WriteResult(seq=cur.seq, op=event.op, recorded_at=at, facts=list(cur.facts),
                             fact=cur.facts[0] if cur.facts else None)
        if ident is not None:
            self._seen_ids[ident] = result.model_copy(update={"duplicate": True})
        return result

    def _declare_builtin(self, event: SetEvent) -> Steps[None]:
        """A built-in many-valued topic the tenant never declared is declared many-valued, as
        its own ledger entry just before its first value (graphmem.core.topics: why a ledger event)."""
        yield from self.cache.load_topics([event.topic])
        if event.topic not in self.cache.declared:
            yield from self.apply(parse_event({**builtin_declaration(event.topic), "recorded_at": event.recorded_at}))

    def replay(self, row: dict[str, Any]) -> Steps[None]:
        """Re-apply one stored ledger event with its original seq and record time.

        Tombstones (erased events, the erase itself) carry no content and change nothing.
        """
        payload = json.loads(row["payload"])
        if payload.get("erased") or payload.get("op") == "erase":
            return
        cur = Current(seq=row["seq"], at=to_time(row["recorded_at"]))
        yield from dispatch(self.work, cur, parse_event(payload))
        self.buffer.links.extend({"seq": cur.seq, "fact": f} for f in cur.facts)

    def flush(self, *, append: bool = True) -> Steps[None]:
        """Write everything this unit did, in dependency order; then the ledger entries."""
        self.work.timelines.settle()
        yield from self.buffer.flush(self.query, self.head, append=append)
