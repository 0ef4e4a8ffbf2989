"""The write path: one ledger event and its effect on the graph projection, in one transaction.

:func:`apply_event` is called inside a Neo4j write transaction. It locks the tenant's ledger
head (so events of a tenant are totally ordered and record time never runs back), checks the
idempotency id, applies the op to the projection, and appends the ``Event``. :func:`replay_event`
re-applies a stored event to an empty projection with its original sequence number and record
time, which is what makes ``rebuild`` deterministic.

After any change to the assertions of one (subject, topic, env) — a *slot* — :func:`_refresh`
recomputes its timeline with :mod:`graphmem.temporal` as known at this record time and writes
the difference as ``HOLDS`` / ``RELATED`` segments: ended segments get ``superseded_at``, new ones
start at this record time. Older segments are never rewritten, so ``known_at`` reads see the past.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone
from typing import Any, Callable

from . import queries
from .errors import NotFoundError, TemporalError, ValidationError
from .models import (
    ConfirmEvent,
    DeclareTopicEvent,
    MessageEvent,
    QuoteEvent,
    RejectEvent,
    RetractEvent,
    RevokeEvent,
    SetEvent,
    SourceEvent,
    WriteResult,
    parse_event,
)
from .temporal import Assertion, View, standing_before, timeline

__all__ = ["apply_event", "replay_event", "to_datetime", "row_to_assertion"]

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
Expander = Callable[[MessageEvent, list[Any]], list[Any]]


def run(tx: Any, query: str, /, **params: Any) -> list[dict[str, Any]]:
    """Run a named query in ``tx`` with exactly the file's parameters."""
    q = queries.get(query)
    q.check(params)
    return [r.data() for r in tx.run(q.text, params)]


def to_datetime(value: Any) -> datetime | None:
    """A Neo4j DateTime (or None) as an aware UTC datetime."""
    if value is None:
        return None
    if hasattr(value, "to_native"):
        value = value.to_native()
    return value.astimezone(timezone.utc)


def _env(env: str | None) -> str:
    return env or ""


def row_to_assertion(row: dict[str, Any]) -> Assertion:
    return Assertion(
        uid=row["uid"], seq=row["seq"], kind=row["kind"], value=row["value"],
        valid_from=to_datetime(row["valid_from"]),  # type: ignore[arg-type]
        valid_to=to_datetime(row["valid_to"]), recorded_at=to_datetime(row["recorded_at"]),  # type: ignore[arg-type]
        authority=row["authority"], session=row["session"], status=row["status"],
        confirmed_at=to_datetime(row["confirmed_at"]), rejected_at=to_datetime(row["rejected_at"]),
        retracted_at=to_datetime(row["retracted_at"]), author=row["author"],
        said_at=to_datetime(row["said_at"]), quoted=bool(row["quoted"]), source=row["source"],
        is_entity=bool(row["is_entity"]),
    )


class _Apply:
    """The effect of one event on the projection, at sequence ``seq`` and record time ``at``."""

    def __init__(self, tx: Any, tenant: str, seq: int, at: datetime, expand: Expander | None) -> None:
        self.tx, self.tenant, self.seq, self.at, self.expand = tx, tenant, seq, at, expand
        self.facts: list[str] = []
        self.drawn: list[dict[str, Any]] | None = None
        self._n = 0

    def q(self, query: str, /, **params: Any) -> list[dict[str, Any]]:
        return run(self.tx, query, tenant=self.tenant, **params)

    def _fact_uid(self) -> str:
        self._n += 1
        return f"f{self.seq}" if self._n == 1 else f"f{self.seq}.{self._n}"

    def _source(self, uid: str) -> dict[str, Any]:
        rows = self.q("source/get", uid=uid)
        if not rows:
            raise NotFoundError(f"unknown source {uid!r}: register it with a 'source' event first")
        return rows[0]

    # -- ops ---------------------------------------------------------------------------------

    def apply(self, event: Any) -> None:
        handler = getattr(self, "op_" + event.op)
        handler(event)

    def op_source(self, e: SourceEvent) -> None:
        self.q("source/create", uid=e.id, kind=e.kind, at=e.at, text=e.text, author=e.author,
               recorded_at=self.at)

    def op_topic(self, e: DeclareTopicEvent) -> None:
        self.q("topic/declare", name=e.name, cardinality=e.cardinality)

    def op_set(self, e: SetEvent) -> None:
        src = self._source(e.source) if e.source else None
        valid_from = e.valid_from or (to_datetime(src["at"]) if src else None) or self.at
        if e.valid_to is not None and e.valid_to <= valid_from:
            raise TemporalError(f"valid_to {e.valid_to.isoformat()} is not after valid_from {valid_from.isoformat()}")
        if e.ref and self.q("fact/by_ref", ref=e.ref):
            raise ValidationError(f"ref {e.ref!r} is already in use in this tenant")
        is_entity = e.object is not None
        self._create(kind="set", subject=e.subject, topic=e.topic, env=e.env,
                     value=e.object if is_entity else e.value, is_entity=is_entity,
                     valid_from=valid_from, valid_to=e.valid_to, authority=e.authority,
                     session=e.session, status=e.status, confidence=e.confidence, ref=e.ref,
                     author=(src["author"] if src else None) or e.actor,
                     said_at=to_datetime(src["at"]) if src else self.at, quoted=False,
                     source=e.source, evidence=e.evidence)

    def op_revoke(self, e: RevokeEvent) -> None:
        src = self._source(e.source) if e.source else None
        effective = e.effective or (to_datetime(src["at"]) if src else None) or self.at
        self._create(kind="revoke", subject=e.subject, topic=e.topic, env=e.env, value=e.value,
                     is_entity=False, valid_from=effective, valid_to=None, authority=e.authority,
                     session=e.session, status="confirmed", confidence=None, ref=None,
                     author=(src["author"] if src else None) or e.actor,
                     said_at=to_datetime(src["at"]) if src else self.at, quoted=False,
                     source=e.source, evidence=None)

    def op_quote(self, e: QuoteEvent) -> None:
        self._source(e.source)
        old = self._source(e.quotes)
        old_at = to_datetime(old["at"])
        self.q("source/quote", source=e.source, quotes=e.quotes, recorded_at=self.at, seq=self.seq)
        for c in e.claims:
            is_entity = c.object is not None
            # The claim is the old document's: dated at its time, by its author, from it.
            self._create(kind="set", subject=c.subject, topic=c.topic, env=c.env,
                         value=c.object if is_entity else c.value, is_entity=is_entity,
                         valid_from=old_at, valid_to=None, authority="L1", session=None,
                         status="confirmed", confidence=None, ref=None, author=old["author"],
                         said_at=old_at, quoted=True, source=e.quotes, evidence=None)

    def _marked(self, e: Any, field: str) -> None:
        rows = self.q("fact/by_ref", ref=e.ref) if e.ref else self.q("fact/by_uid", uid=e.fact)
        if not rows:
            raise NotFoundError(f"unknown ref {e.ref!r}" if e.ref else f"unknown fact {e.fact!r}")
        f = rows[0]
        if f["retracted_at"] is not None or f["rejected_at"] is not None:
            raise ValidationError(f"{e.ref or e.fact!r} was already withdrawn")
        if field in ("confirmed_at", "rejected_at") and (f["status"] != "candidate" or f["confirmed_at"] is not None):
            raise ValidationError(f"{e.ref or e.fact!r} is not a candidate; only candidates are confirmed or rejected")
        marks = {"confirmed_at": None, "rejected_at": None, "retracted_at": None, field: self.at}
        self.q("fact/mark", uid=f["uid"], **marks)
        self.facts.append(f["uid"])
        self._refresh(f["subject"], f["topic"], f["env"])

    def op_confirm(self, e: ConfirmEvent) -> None:
        self._marked(e, "confirmed_at")

    def op_reject(self, e: RejectEvent) -> None:
        self._marked(e, "rejected_at")

    def op_retract(self, e: RetractEvent) -> None:
        self._marked(e, "retracted_at")

    def op_message(self, e: MessageEvent) -> None:
        """Register the message as a source, then apply what the extractor draws from it.

        On replay the drawn events come from the ledger (``e.drawn``), so a rebuild never depends
        on the extractor's version.
        """
        self.op_source(SourceEvent(op="source", id=e.id, kind=e.kind, at=e.at, text=e.text, author=e.speaker))
        if e.drawn is None:
            if self.expand is None:
                raise ValidationError("a 'message' event needs an extractor; use GraphMem.ingest")
            subjects = [s for s in (e.speaker, e.about) if s]
            context = [_prior(r) for r in self.q("fact/recent", subjects=subjects, limit=50)]
            self.drawn = [_plain(d) for d in self.expand(e, context)]
        else:
            self.drawn = e.drawn
        for d in self.drawn:
            ev = parse_event({**d, "source": d.get("source", e.id)} if d.get("op") != "source" else d)
            if ev.op in ("message", "topic") or ev.recorded_at is not None or ev.tenant is not None:
                raise ValidationError(f"an extractor may not draw {ev.op!r} events or set recorded_at/tenant")
            self.apply(ev)

    # -- projection ------------------------------------------------------------------------------

    def _create(self, *, subject: str, topic: str, env: str | None, **props: Any) -> None:
        uid = self._fact_uid()
        self.q("fact/create", uid=uid, seq=self.seq, subject=subject, topic=topic, env=_env(env),
               recorded_at=self.at, **props)
        self.facts.append(uid)
        self._refresh(subject, topic, _env(env), new_fact=uid)

    def _refresh(self, subject: str, topic: str, env: str, new_fact: str | None = None) -> None:
        """Recompute the slot's timeline as known now and write the difference as segments."""
        assertions = [row_to_assertion(r) for r in self.q("fact/slot", subject=subject, topic=topic, env=env)]
        card = self.q("topic/get", name=topic)
        many = bool(card) and card[0]["cardinality"] == "many"
        view = View(known_at=self.at)
        wanted = {s.key(): s for s in timeline(assertions, view, subject, many=many)}
        current = self.q("timeline/open", subject=subject, topic=topic, env=env)
        have = {(r["fact"], to_datetime(r["valid_from"]), to_datetime(r["valid_to"]), bool(r["conflict"])): r["seg"]
                for r in current}
        gone = [seg for key, seg in have.items() if key not in wanted]
        new = [s for key, s in wanted.items() if key not in have]
        if gone:
            self.q("timeline/close", subject=subject, segs=gone, recorded_at=self.at)
        if new:
            segments = [{"seg": f"{self.seq}:{topic}:{env}:{i}", "fact": s.fact, "valid_from": s.valid_from,
                         "valid_to": s.valid_to, "conflict": s.conflict} for i, s in enumerate(new)]
            self.q("timeline/add", subject=subject, topic=topic, env=env, segments=segments,
                   recorded_at=self.at)
        if new_fact is not None:
            self._link_superseded(assertions, new_fact, subject, view)

    def _link_superseded(self, assertions: list[Assertion], uid: str, subject: str, view: View) -> None:
        fact = next(a for a in assertions if a.uid == uid)
        if fact.quoted or fact.is_exception:
            return  # a quote never supersedes; an exception only overlays for a while
        before = standing_before(assertions, fact.valid_from, view, subject, exclude=uid)
        for old in before.winners:
            if old.kind == "set":
                self.q("fact/supersedes", new=uid, old=old.uid, recorded_at=self.at, seq=self.seq)


def _prior(row: dict[str, Any]) -> Any:
    from .extract import PriorFact

    return PriorFact(uid=row["uid"], subject=row["subject"], topic=row["topic"], env=row["env"] or None,
                     value=row["value"], valid_from=to_datetime(row["valid_from"]),  # type: ignore[arg-type]
                     valid_to=to_datetime(row["valid_to"]), author=row["author"], seq=row["seq"])


def _plain(event: Any) -> dict[str, Any]:
    """An extractor's event as a JSON-ready dict (extractors may return dicts or models)."""
    if hasattr(event, "model_dump"):
        return event.model_dump(mode="json", exclude_none=True)
    return json.loads(json.dumps(event, default=str))


def _record_time(event: Any, last: datetime | None, now: datetime) -> datetime:
    """When the store learned the event (DESIGN.md §2); it never runs back."""
    if event.recorded_at is not None:
        if last is not None and event.recorded_at < last:
            raise TemporalError(
                f"recorded_at {event.recorded_at.isoformat()} is earlier than the ledger's last "
                f"record time {last.isoformat()}; record time only moves forward")
        return event.recorded_at
    # A topic declaration is schema, not a fact: it does not move the clock.
    if event.op == "topic":
        return last if last is not None else EPOCH
    # A text received at `at` (a source, a message) is learned then — never before the ledger's
    # last event, never in the future. Anything else is learned now.
    at = getattr(event, "at", None) if event.op in ("source", "message") else None
    t = min(at, now) if at is not None else now
    return max(t, last) if last is not None else t


def _event_id(event: Any) -> str | None:
    if event.op in ("source", "message"):
        return f"{event.op}:{event.id}"
    return event.id


def apply_event(tx: Any, tenant: str, event: Any, now: datetime, expand: Expander | None = None) -> WriteResult:
    """Append ``event`` to the tenant's ledger and apply it to the projection (one transaction)."""
    head = run(tx, "ledger/lock", tenant=tenant, token=uuid.uuid4().hex)[0]
    event_id = _event_id(event)
    if event_id is not None:
        found = run(tx, "ledger/find", tenant=tenant, event_id=event_id)
        if found:
            prior = found[0]
            return WriteResult(seq=prior["seq"], op=prior["op"], recorded_at=to_datetime(prior["recorded_at"]),
                               facts=prior["facts"] or [], fact=(prior["facts"] or [None])[0], duplicate=True)
    last = to_datetime(head["last_recorded_at"])
    at = _record_time(event, last, now)
    seq = head["seq"] + 1
    work = _Apply(tx, tenant, seq, at, expand)
    work.apply(event)
    stored = event.payload()
    if work.drawn is not None:
        stored["drawn"] = work.drawn
    payload = json.dumps(stored, ensure_ascii=False, sort_keys=True)
    run(tx, "ledger/append", tenant=tenant, seq=seq, op=event.op, payload=payload, actor=event.actor,
        reason=event.reason, recorded_at=at, event_id=event_id, facts=work.facts)
    if work.facts:
        run(tx, "ledger/link", tenant=tenant, seq=seq, facts=work.facts)
    return WriteResult(seq=seq, op=event.op, recorded_at=at, facts=work.facts,
                       fact=work.facts[0] if work.facts else None)


def replay_event(tx: Any, tenant: str, row: dict[str, Any], expand: Expander | None = None) -> None:
    """Re-apply one stored ledger event to the projection, with its original seq and record time."""
    event = parse_event(json.loads(row["payload"]))
    work = _Apply(tx, tenant, row["seq"], to_datetime(row["recorded_at"]), expand)  # type: ignore[arg-type]
    work.apply(event)
    if work.facts:
        run(tx, "ledger/link", tenant=tenant, seq=row["seq"], facts=work.facts)
