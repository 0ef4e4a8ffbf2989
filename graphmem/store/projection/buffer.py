"""The write buffer: everything a unit of work will write, gathered in memory while events are
applied and written by :meth:`WriteBuffer.flush` with one ``UNWIND`` query per kind of change.

Batching is what makes a bulk import of thousands of events cost a few queries, and keeping the
writes apart from the reads (:mod:`.slots`) means a failed event leaves no half-written graph:
nothing reaches the database before the flush, at the end of the transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Mapping, NamedTuple

from ..queries import Steps
from .segments import Seg
from .slots import SlotKey
from .values import RunQuery, to_datetime

__all__ = ["Batch", "LedgerHead", "WriteBuffer"]

Rows = list[dict[str, Any]]


class Batch(NamedTuple):
    """One batch write: the named query, its list parameter, the rows (none: not run), and any
    other parameters the query takes."""

    query: str
    param: str
    rows: Rows
    extra: Mapping[str, Any] = {}


@dataclass
class LedgerHead:
    """The tenant's ledger head as the unit of work moves it: the last sequence number, record
    time and chain hash (:mod:`graphmem.store.chain`), and whether the tenant keeps summaries."""

    seq: int = 0
    last: datetime | None = None
    last_hash: str | None = None
    has_summaries: bool = True
    server_now: datetime | None = None  # the server's clock when the head was read: record time's ceiling

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "LedgerHead":
        """The head as ``ledger/lock`` or ``ledger/peek`` returns it."""
        return cls(row["seq"], to_datetime(row["last_recorded_at"]), row.get("last_hash"),
                   bool(row["has_summaries"]), to_datetime(row.get("server_now")))

    def key(self) -> tuple[int, str | None, bool]:
        """What tells one ledger head from another: a write since moves the seq and the hash, a
        first summary changes whether stale marks are written."""
        return self.seq, self.last_hash, self.has_summaries


@dataclass
class WriteBuffer:
    """Pending writes, by kind, in the order they will be written. ``tenant_key``: the tenant's
    exact token in the full-text indexes (graphmem.core.tenant_key), written on every Source, Fact
    and Entity the writes create — by a replay too, so a rebuild reproduces it."""

    tenant_key: str
    sources: Rows = field(default_factory=list)
    topics: dict[str, tuple[str, int | None]] = field(default_factory=dict)  # name -> (cardinality, ttl)
    facts: Rows = field(default_factory=list)
    marks: Rows = field(default_factory=list)
    expired: Rows = field(default_factory=list)
    source_marks: Rows = field(default_factory=list)
    quotes: Rows = field(default_factory=list)
    episodes: Rows = field(default_factory=list)
    closes: Rows = field(default_factory=list)
    adds: dict[str, tuple[SlotKey, Seg]] = field(default_factory=dict)  # by segment id
    supersedes: Rows = field(default_factory=list)
    events: Rows = field(default_factory=list)  # new ledger entries
    links: Rows = field(default_factory=list)  # event -> fact, for a replay (its events are stored)
    working: Rows = field(default_factory=list)  # working-memory steps (projection/working.py)
    touched: set[tuple[str, str]] = field(default_factory=set)  # (subject, topic) whose summaries go stale

    def segments_ended(self, key: SlotKey, ended: list[Seg]) -> None:
        """Segments given a new end in record time: a stored one is closed; one this unit added is
        rewritten, or dropped if it ends where it began (it was never visible)."""
        for seg in ended:
            if seg.stored:
                self.closes.append({"subject": key[0], "seg": seg.seg, "at": seg.superseded_at})
            elif seg.gone:
                self.adds.pop(seg.seg, None)
            elif seg.seg in self.adds:
                self.adds[seg.seg] = (key, seg)

    def segments_started(self, key: SlotKey, started: list[Seg]) -> None:
        for seg in started:
            self.adds[seg.seg] = (key, seg)

    def _batches(self) -> list[Batch]:
        """The batch writes in dependency order: nodes before what links them. A segment on a fact
        this unit creates is written with the fact (write/facts holds its nodes already); the rest
        (segments on stored facts) by write/add_segments."""
        new_facts = {f["uid"]: (f["subject"], f["topic"], f["env"]) for f in self.facts}
        own: dict[str, Rows] = {}
        other: Rows = []
        for key, seg in self.adds.values():
            row = {"seg": seg.seg, "subject": key[0], "topic": key[1], "env": key[2], "fact": seg.fact,
                   "valid_from": seg.valid_from, "valid_to": seg.valid_to, "conflict": seg.conflict,
                   "recorded_at": seg.recorded_at, "superseded_at": seg.superseded_at, "expires_at": seg.expires_at}
            if new_facts.get(seg.fact) == key:  # a slot's segments hold its own facts
                own.setdefault(seg.fact, []).append(row)
            else:
                other.append(row)
        keyed = {"tenant_key": self.tenant_key}
        return [
            Batch("write/sources", "sources", self.sources, keyed),
            Batch("write/topics", "topics", [{"name": n, "cardinality": c, "ttl_seconds": ttl}
                                             for n, (c, ttl) in self.topics.items()]),
            self._facts_batch(own),
            Batch("write/marks", "marks", self.marks),
            Batch("write/expire", "marks", self.expired),
            Batch("write/source_marks", "marks", self.source_marks),
            Batch("write/quotes", "quotes", self.quotes),
            Batch("write/episodes", "episodes", self.episodes, keyed),
            Batch("write/close_segments", "closes", self.closes),
            Batch("write/add_segments", "segments", other),
            Batch("write/supersedes", "pairs", self.supersedes),
        ]

    def _facts_batch(self, own: dict[str, Rows]) -> Batch:
        """write/facts: each new fact with the segments it opens, and the batch's topics once
        (``topic_names``, each row naming its own by ``topic_index``), so the query merges a
        few dozen topics a batch instead of one a fact; ``expiring_topics``, those of them with a fact
        that can expire, which the query marks so that as_of skips the expiry lookup elsewhere."""
        names = list(dict.fromkeys(f["topic"] for f in self.facts))
        index = {name: i for i, name in enumerate(names)}
        rows = [{**f, "segments": own.get(f["uid"], []), "topic_index": index[f["topic"]]} for f in self.facts]
        expiring = sorted({f["topic"] for f in self.facts if f["expires_at"] is not None})  # as_of reads it
        return Batch("write/facts", "facts", rows, {"topic_names": names, "expiring_topics": expiring,
                                                    "tenant_key": self.tenant_key})

    def flush(self, query: RunQuery, head: LedgerHead, *, append: bool) -> Steps[None]:
        """Write everything, then the ledger entries (``append``, chained onto ``head``) or, for a
        replay, only their links to the facts; then working-memory steps and stale summaries."""
        yield from self.write(query, self.seal(head) if append else head, append=append)

    def seal(self, head: LedgerHead) -> LedgerHead:
        """Chain the new ledger entries onto ``head`` (graphmem.store.chain), moving its hash, and
        return a copy of it as it now stands: what :meth:`write` records. No I/O, so a bulk load
        seals a batch before its transaction begins (graphmem.store.pipeline)."""
        from ..chain import digest, link
        for v in self.events:
            v["digest"] = digest(v["seq"], v["op"], v["recorded_at"], v["actor"], v["reason"], v["payload"])
            v["hash"] = head.last_hash = link(head.last_hash, v["digest"])
        return replace(head)

    def write(self, query: RunQuery, head: LedgerHead, *, append: bool) -> Steps[None]:
        """The writes of :meth:`flush`, the ledger entries sealed already onto ``head``. None of
        them reads what a write returns, so a batch sealed ahead of its transaction builds them
        all before it begins (:class:`.unit_of_work.Sealed`); keep it so."""
        for batch in self._batches():
            if batch.rows:
                yield from query(batch.query, **{batch.param: batch.rows}, **batch.extra)
        if append and self.events:
            yield from query("write/events", events=self.events, seq=head.seq, last_recorded_at=head.last,
                             last_hash=head.last_hash)  # links each event to its facts as well
        elif self.links:  # a replay: the events are in the ledger already
            yield from query("write/links", links=self.links)
        if self.working:
            from .working import flush_working
            yield from flush_working(query, self.working)
        if append and self.touched and head.has_summaries:
            yield from query("write/summaries_stale", seq=head.seq,
                             slots=[{"subject": s, "topic": t} for s, t in sorted(self.touched)])
