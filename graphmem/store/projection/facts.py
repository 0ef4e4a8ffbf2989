"""The one fact builder: a new ``Fact`` (from a ``set``, a ``revoke`` or a quoted claim) as a row
for the write buffer and an assertion in its slot, and what it supersedes.

:class:`NewFact` names every property a fact carries, with the defaults a plain statement has, so
each handler says only what differs for its kind of event.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ..queries import Steps
from .context import Current, Work
from .slots import slot_key
from .values import row_to_assertion
from ...core.temporal import View, standing_before

__all__ = ["NewFact", "create", "expiry", "said_by"]


@dataclass
class NewFact:
    """A fact to create; its uid, sequence number and record time come from the current event."""

    subject: str
    topic: str
    env: str | None
    value: str | None
    valid_from: datetime
    author: str | None
    said_at: datetime
    source: str | None
    kind: str = "set"
    is_entity: bool = False
    valid_to: datetime | None = None
    authority: str = "L1"
    session: str | None = None
    status: str = "confirmed"
    confidence: float | None = None
    ref: str | None = None
    quoted: bool = False
    evidence: Any = None
    expires_at: datetime | None = None


def said_by(src: dict[str, Any] | None, actor: str | None, cur: Current) -> tuple[str | None, datetime]:
    """Who said it and when: the source's author and time, else the event's actor and record time."""
    return (src["author"] if src else None) or actor, src["at"] if src else cur.at


def expiry(work: Work, cur: Current, topic: str, given: datetime | None,
           src: dict[str, Any] | None) -> datetime | None:
    """The earliest of: the event's expires_at, its source's, and the topic's TTL from now."""
    ttl = work.cache.ttl.get(topic)
    candidates = [given, src.get("expires_at") if src else None,
                  cur.at + timedelta(seconds=ttl) if ttl else None]
    found = [c for c in candidates if c is not None]
    return min(found) if found else None


def create(work: Work, cur: Current, fact: NewFact) -> Steps[None]:
    """Create the fact: buffer its row, add it to its slot, recompute the slot, and record which
    standing ``set`` facts it supersedes (quotes never supersede; exceptions overlay)."""
    cur.n_facts += 1
    uid = f"f{cur.seq}" if cur.n_facts == 1 else f"f{cur.seq}.{cur.n_facts}"
    key = slot_key(fact.subject, fact.topic, fact.env)
    slot = yield from work.cache.slot(key)
    row = {"uid": uid, "seq": cur.seq, **vars(fact), "env": key[2], "recorded_at": cur.at}
    work.buffer.facts.append(row)
    assertion = row_to_assertion({**row, "confirmed_at": None, "rejected_at": None, "retracted_at": None})
    slot.assertions.append(assertion)
    work.cache.fact_slot[uid] = key
    if fact.ref:
        work.cache.facts_by_ref[fact.ref] = (uid, key)
    cur.facts.append(uid)
    work.refresh(slot, cur)
    if not assertion.quoted and not assertion.is_exception:
        before = standing_before(slot.assertions, assertion.valid_from, View(known_at=cur.at), fact.subject,
                                 exclude=uid)
        work.buffer.supersedes.extend({"new": uid, "old": old.uid, "recorded_at": cur.at, "seq": cur.seq}
                                      for old in before.winners if old.kind == "set")
