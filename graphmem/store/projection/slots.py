"""The slot cache: what one unit of work has read from the projection, loaded in batches and kept
for the unit's life. Nothing else in the transaction writes the tenant's graph (the unit holds the
ledger lock), so a value read once stays true except for the unit's own changes, which are made
here too.

A *slot* is one (subject, topic, env): its assertions and its live segments are what a timeline
recomputation needs. Sources, topic declarations and fact refs are cached beside them; a name
looked up and not found is remembered as missing, so it is not asked for again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable

from .segments import Seg
from ..queries import Steps
from .values import EPOCH, RunQuery, row_to_assertion, to_datetime, to_time
from ...core.errors import NotFoundError
from ...core.temporal import Assertion

__all__ = ["Slot", "SlotCache", "SlotKey", "slot_key"]

SlotKey = tuple[str, str, str]  # (subject, topic, env); env "" means no environment


def slot_key(subject: str, topic: str, env: str | None) -> SlotKey:
    return (subject, topic, env or "")


def _key_text(key: SlotKey) -> str:
    return "\u241f".join(key)


@dataclass
class Slot:
    """One slot's assertions (in ledger order) and its segments not yet over in record time."""

    key: SlotKey
    assertions: list[Assertion] = field(default_factory=list)
    live: list[Seg] = field(default_factory=list)


class SlotCache:
    """Slots, sources, topics and fact refs of one tenant, read at most once per unit of work.

    ``last`` is the ledger's last record time as the unit knows it: segments still open after it
    are a slot's live ones.
    """

    def __init__(self, query: RunQuery) -> None:
        self.query = query
        self.last: datetime | None = None
        self.sources: dict[str, dict[str, Any] | None] = {}
        self.topics: dict[str, str] = {}  # topic -> cardinality ("one" unless declared "many")
        self.declared: set[str] = set()  # topics with a declaration (a `topic` event) in the tenant
        self.ttl: dict[str, int | None] = {}
        self.facts_by_ref: dict[str, tuple[str, SlotKey]] = {}
        self.fact_slot: dict[str, SlotKey] = {}
        self.slots: dict[SlotKey, Slot] = {}

    def load_sources(self, uids: Iterable[str]) -> Steps[None]:
        missing = [u for u in set(uids) if u not in self.sources]
        if not missing:
            return
        for u in missing:
            self.sources[u] = None
        for r in (yield from self.query("load/sources", uids=missing)):
            self.sources[r["uid"]] = {**r, "at": to_datetime(r["at"]), "expires_at": to_datetime(r["expires_at"])}

    def load_topics(self, names: Iterable[str]) -> Steps[None]:
        missing = [n for n in set(names) if n not in self.topics]
        if not missing:
            return
        for n in missing:
            self.topics[n] = "one"
        for r in (yield from self.query("load/topics", names=missing)):
            self.topics[r["name"]] = r["cardinality"] or "one"
            if r["cardinality"]:
                self.declared.add(r["name"])
            self.ttl[r["name"]] = r["ttl_seconds"]

    def load_slots(self, keys: Iterable[SlotKey]) -> Steps[None]:
        missing = [k for k in set(keys) if k not in self.slots]
        if not missing:
            return
        params = [{"key": _key_text(k), "subject": k[0], "topic": k[1], "env": k[2]} for k in missing]
        by_text = {_key_text(k): k for k in missing}
        for k in missing:
            self.slots[k] = Slot(k)
        for r in (yield from self.query("load/slots", slots=params, after=self.last or EPOCH)):
            key = by_text[r["key"]]
            slot = self.slots[key]
            for f in r["facts"]:
                slot.assertions.append(row_to_assertion(f))
                self.fact_slot[f["uid"]] = key
                if f["ref"]:
                    self.facts_by_ref[f["ref"]] = (f["uid"], key)
                slot.live.extend(Seg(
                    seg=h["seg"], fact=f["uid"], valid_from=to_time(h["valid_from"]),
                    valid_to=to_datetime(h["valid_to"]), conflict=bool(h["conflict"]),
                    recorded_at=to_time(h["recorded_at"]), stored=True,
                    superseded_at=to_datetime(h["superseded_at"]), expires_at=to_datetime(h["expires_at"]))
                    for h in f["segments"])
        for slot in (self.slots[k] for k in missing):
            slot.assertions.sort(key=lambda a: a.seq)

    def load_refs(self, refs: Iterable[str]) -> Steps[None]:
        missing = [r for r in set(refs) if r not in self.facts_by_ref]
        if missing:
            for r in (yield from self.query("load/facts_by_ref", refs=missing)):
                key = slot_key(r["subject"], r["topic"], r["env"])
                self.facts_by_ref[r["ref"]] = (r["uid"], key)
                self.fact_slot[r["uid"]] = key

    def locate(self, uid: str) -> Steps[SlotKey | None]:
        """The slot of a fact by its uid, or None if the tenant has no such fact."""
        if uid not in self.fact_slot:
            for r in (yield from self.query("load/facts_by_uid", uids=[uid])):
                self.fact_slot[r["uid"]] = slot_key(r["subject"], r["topic"], r["env"])
        return self.fact_slot.get(uid)

    def source(self, uid: str) -> Steps[dict[str, Any]]:
        """A registered source; an unknown one is refused."""
        yield from self.load_sources([uid])
        src = self.sources.get(uid)
        if src is None:
            raise NotFoundError(f"unknown source {uid!r}: register it with a 'source' event first",
                                kind="source", id=uid)
        return src

    def slot(self, key: SlotKey) -> Steps[Slot]:
        """A slot, with its topic's declaration (cardinality and TTL) loaded beside it."""
        yield from self.load_slots([key])
        yield from self.load_topics([key[1]])
        return self.slots[key]
