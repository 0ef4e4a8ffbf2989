"""Forgetting and audit: erase a subject or a source everywhere, and read the ledger as an audit trail.

``erase(subject=…)`` removes everything the store attributes to a subject: the facts about it or
with it as their value, the sources it wrote, the sources that report its episodes, the sources those facts came from — and, because a
source is erased whole, every fact drawn from those sources. ``erase(source=…)`` removes a source
and everything drawn from it. In the ledger, every event that created, changed, registered or
quoted any of it is replaced by a content-free tombstone (its op, order and time stay), and one
``erase`` event records who, when, why and what kind of thing — never what. The projection is
then rebuilt from the redacted ledger — in the same transaction as the redaction, so a crash
leaves either all of it or none of it — so nothing erased can come back through a replay, and
``known_at`` in the past no longer shows it either: the right to be forgotten outranks history.

Limits, stated: text the store does not attribute to the subject (another person's message that
happens to mention them) is not found; a retried write with the idempotency id of an erased
event applies again (ids are erased too).
"""

from __future__ import annotations

import json
from typing import Any, Callable

from ..store.chain import digest, link
from ..core.errors import ValidationError
from ..store.maintenance import replay_all
from ..store.ops import Plan, Tx, run_query
from ..store.projection import Expander, UnitOfWork
from ..store.queries import Call, Steps

__all__ = ["audit", "erase", "erase_targets"]


def erase_targets(tenant: str, subject: str | None, source: str | None) -> Steps[tuple[set[str], set[str]]]:
    """What erasing ``subject`` or ``source`` starts from: the facts about the subject (or with it as
    their value) and every source attributed to it — the sources of those facts, the sources it
    wrote, the sources that report its episodes — or the one source. An erase request holds these
    back; the erase itself then closes over everything they made."""
    facts: set[str] = set()
    sources: set[str] = {source} if source is not None else set()
    if subject is not None:
        for r in (yield from run_query("governance/subject_facts", tenant, subject=subject)):
            facts.add(r["uid"])
            if r["source"]:
                sources.add(r["source"])
        sources.update(r["uid"] for r in (yield from run_query("governance/authored_sources", tenant, subject=subject)))
        sources.update(r["source"] for r in (yield from run_query("governance/subject_episodes", tenant, subject=subject)))
    return facts, sources


def _erase_tx(tenant: str, subject: str | None, source: str | None, actor: str | None, reason: str | None,
              now: Any, request: str | None = None) -> Steps[dict[str, Any]]:
    unit = yield from UnitOfWork.open(tenant, now, None)  # takes the ledger lock
    facts, sources = yield from erase_targets(tenant, subject, source)
    events: dict[int, dict[str, Any]] = {}
    while True:  # close over what the touched events also made
        facts.update(r["uid"] for r in (yield from run_query("governance/source_facts", tenant, sources=sorted(sources))))
        ids = [f"source:{s}" for s in sources] + [f"message:{s}" for s in sources]
        found = yield from run_query("governance/touching_events", tenant, facts=sorted(facts), event_ids=ids,
                              sources=sorted(sources))
        grew = False
        for ev in found:
            if ev["seq"] in events:
                continue
            events[ev["seq"]] = ev
            new_facts = set(ev["facts"] or []) - facts
            payload = json.loads(ev["payload"])
            new_sources = {payload.get(k) for k in ("id", "source", "quotes") if ev["op"] in ("source", "message", "quote")}
            new_sources = {s for s in new_sources if s} - sources
            if new_facts or new_sources:
                facts |= new_facts
                sources |= new_sources
                grew = True
        if not grew:
            break
    from ..working.working_store import erase_evictions, erase_targets as working_targets
    working = yield from working_targets(tenant, subject, sorted(sources))  # items, summaries, checkpoints
    for ev in working["events"]:
        events.setdefault(ev["seq"], ev)
    # what an erased summary had replaced stays replaced: recorded before the redaction, replayed after
    evictions = erase_evictions(working["evict"], actor)
    for ev in evictions:
        yield from unit.apply(ev)
    if evictions:
        yield from unit.flush()
    # playbooks: the outcomes and cards the erase reaches, and their ledger events (playbooks/forget.py)
    from ..playbooks.forget import erase_playbooks, playbook_targets
    playbooks = yield from playbook_targets(tenant, subject, working["events"])
    for ev in playbooks["events"]:
        events.setdefault(ev["seq"], ev)
    erased_playbooks = yield from erase_playbooks(tenant, playbooks)
    yield from run_query("governance/redact", tenant, seqs=sorted(events))
    seq = unit.seq + 1
    at = unit.learned_at(now)
    summary = {"op": "erase", "kind": "subject" if subject is not None else "source",
               "events_redacted": len(events), "facts": len(facts), "sources": len(sources),
               "working_evicted": sum(len(ids) for ids in working["evict"].values()),
               "cards": erased_playbooks["cards"], "outcomes": erased_playbooks["outcomes"]}
    if request is not None:
        summary["request"] = request
    payload = json.dumps(summary, sort_keys=True)
    event_digest = digest(seq, "erase", at, actor, reason, payload)
    yield from run_query("governance/tombstone", tenant, seq=seq, recorded_at=at.isoformat(), actor=actor,
                  reason=reason, payload=payload, digest=event_digest, hash=link(unit.last_hash, event_digest))
    return {**summary, "seq": seq, "working_events": len(evictions)}


def _erase_and_replay(tenant: str, subject: str | None, source: str | None, actor: str | None,
                     reason: str | None, now: Any, expand: Expander | None, request: str | None) -> Steps[dict[str, Any]]:
    """The redaction, the tombstone and the rebuild from the redacted ledger, in one transaction:
    either all of it commits or none of it does, so no crash leaves a redacted ledger behind a
    projection that still serves what it erased, and no reader sees a half-rebuilt tenant."""
    summary = yield from _erase_tx(tenant, subject, source, actor, reason, now, request)
    summary["replayed"] = yield from replay_all(tenant, now, expand, 2000)
    return summary


def erase(tenant: str, *, subject: str | None = None, source: str | None = None, actor: str | None = None,
          reason: str | None = None, clock: Callable[[], Any], expand: Expander | None,
          request: str | None = None) -> Plan[dict[str, Any]]:
    """Erase a subject or a source everywhere, leave a content-free tombstone, rebuild — atomically."""
    if (subject is None) == (source is None):
        raise ValidationError("erase needs exactly one of subject= and source=")
    now = clock()
    summary: dict[str, Any] = yield Tx(
        lambda: _erase_and_replay(tenant, subject, source, actor, reason, now, expand, request), "erase")
    from ..store.observe import count_writes
    count_writes(tenant, {"erase": 1, "working": summary.pop("working_events")})  # committed: counted once
    return summary


def audit(tenant: str, *, since: Any, until: Any, subject: str | None = None) -> Plan[list[dict[str, Any]]]:
    """Every ledger entry recorded in [since, until), optionally only those touching a subject:
    op, time, actor, reason, the payload, the facts it touched and what each one replaced."""
    rows: list[dict[str, Any]] = yield Call("governance/audit", {"tenant": tenant, "since": since, "until": until, "subject": subject})
    for r in rows:
        r["payload"] = json.loads(r["payload"]) if r["payload"] else None
        r["facts"] = [f for f in r["facts"] if f.get("uid")]
        r["replaced"] = [f for f in r["replaced"] if f.get("uid")]
    return rows
