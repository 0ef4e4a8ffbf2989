"""The public write operations: the schema, events (one, many, a bulk load, a transcript), the
typed helpers that build an event (``set``, ``revoke``, ``quote``…), replay, sweep and drop. Each
returns a plan of :mod:`graphmem.store.ops`; see :mod:`graphmem.store.surface`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Literal

from .. import observe, ops
from ...core.answers import WriteResult
from ...core.fields import Authority, SourceKind
from ..ops import Plan
from .common import When, event_dict

if TYPE_CHECKING:
    from ..api import StoreApi
    from ..transcripts import Added

__all__ = ["install_schema", "ensure_schema", "apply", "apply_many", "apply_bulk", "ingest_bulk", "add", "alias", "add_source", "declare_topic", "set", "revoke", "retract", "confirm", "reject", "quote", "ingest", "rebuild", "drop_tenant", "sweep"]


def install_schema(mem: StoreApi) -> Plan[None]:
    """Create graphmem's constraints and indexes (idempotent) and mark the database with the
    schema's version; ``graphmem schema`` runs this.

    >>> mem.install_schema()
    """
    return ops.install_schema()


def ensure_schema(mem: StoreApi) -> Plan[bool]:
    """Install the schema unless the database already carries this version's marker: one cheap
    read when it does (what a client runs when it is made). Returns whether it installed.

    >>> mem.ensure_schema()
    False
    """
    return ops.ensure_schema()


def apply(mem: StoreApi, event: Any) -> Plan[WriteResult]:
    """Validate and apply one event (a docs/format.md dict, JSON text, or a model); one transaction.
    A malformed or refused event raises :class:`~graphmem.core.errors.ValidationError` (or another
    :class:`~graphmem.core.errors.GraphMemError`) and writes nothing.

    >>> mem.apply({"op": "set", "subject": "deploy", "topic": "port", "value": "8000"})
    """
    return observe.observed_plan("apply", mem.tenant, ops.apply(
        mem.tenant, event, mem._clock(), mem._extract, mem.actor), observe.write_summary)


def apply_many(mem: StoreApi, events: Iterable[Any]) -> Plan[list[WriteResult]]:
    """Apply events in order, one transaction each. Every event is validated first: a malformed one
    anywhere writes nothing. An event the store refuses (a record time running back) stops the
    run; the error says how many were applied before it (``N applied; event K refused: …``).

    >>> mem.apply_many([{"op": "topic", "name": "port"}, {"op": "set", "subject": "deploy",
    ...                 "topic": "port", "value": "8000"}])
    """
    return observe.observed_plan("apply_many", mem.tenant, ops.apply_many(
        mem.tenant, events, mem._clock, mem._extract, mem.actor), observe.write_summary)


def apply_bulk(mem: StoreApi, events: Iterable[Any], *, batch_size: int = 2000,
               progress: Callable[[int], None] | None = None) -> Plan[list[WriteResult]]:
    """Apply many events in order, ``batch_size`` to a transaction (the bulk import path). Every
    event is validated before anything is written. Each batch is atomic: an event the store
    refuses rolls its whole batch back and raises with the event's index; earlier batches stay
    applied. A bulk load is for this client's tenant only.

    >>> mem.apply_bulk(events, batch_size=1000, progress=lambda n: print(n, "applied"))
    """
    return observe.observed_plan("apply_bulk", mem.tenant, ops.apply_bulk(
        mem.tenant, events, mem._clock, mem._extract, batch_size, progress, mem.actor, mem._prepare),
        observe.write_summary)


def ingest_bulk(mem: StoreApi, messages: Iterable[dict[str, Any]], *, batch_size: int = 500,
                progress: Callable[[int], None] | None = None, embed: bool = True) -> Plan[list[WriteResult]]:
    """A transcript at once: each message ``{id, speaker, text, at?, session?, about?, kind?}``
    goes through the extractor like :meth:`ingest`, parsed in batches, ``batch_size`` messages
    to a transaction, then embedded for recall. Ids are idempotency ids: loading the same
    transcript twice writes nothing new. Every message is validated before anything is written.

    >>> mem.ingest_bulk([{"id": "D1:1", "speaker": "Caroline", "at": "2023-05-08T13:56:00Z",
    ...                   "text": "I went to a support group yesterday."}])
    """
    from ..transcripts import ingest_bulk as plan
    return observe.observed_plan("ingest_bulk", mem.tenant, plan(
        mem.tenant, messages, mem._clock, mem._extract, mem._prepare, mem.embedder if embed else None,
        batch_size, progress, mem.actor), observe.write_summary)


def add(mem: StoreApi, messages: Iterable[dict[str, Any]], *, user: str | None = None, session: str | None = None,
        at: When | None = None, batch_size: int = 500, embed: bool = True) -> Plan[list[Added]]:
    """A conversation as agent frameworks hold it: rows ``{"role", "content", "name"?, "id"?,
    "created_at"?}`` (OpenAI / LangChain shape; ``{id, speaker, text, …}`` rows too). ``role``
    decides who speaks: a ``user`` row is the words of its ``name``, else of ``user``; an
    ``assistant``, ``system`` or ``tool`` row is kept as a message but gives at most L2
    candidates, never about its own speaker (graphmem.extract.roles). ``session`` and ``at`` are
    the defaults of rows that name none. A row without ``id`` gets one made from the session, its
    position, role and text, so adding the same rows again writes nothing new. Returns, per row,
    its id, speaker and the facts drawn. Every row is checked before anything is written.

    >>> mem.add([{"role": "assistant", "content": "Where should I send it?"},
    ...          {"role": "user", "content": "I moved to Hewan Rd on Sep 20."}], user="lin", session="s1")
    """
    from ..transcripts import add as plan
    return observe.observed_plan("add", mem.tenant, plan(
        mem.tenant, messages, mem._clock, mem._extract, mem._prepare, mem.embedder if embed else None,
        batch_size, mem.actor, user=user, session=session, at=at))


def alias(mem: StoreApi, subject: str, alias: str, *, source: str | None = None, reason: str | None = None,
          actor: str | None = None, recorded_at: When | None = None, valid_from: When | None = None,
          id: str | None = None) -> Plan[list[WriteResult]]:
    """Record another name for a person or thing ("Mel" for "Melanie"): recall resolves it. The
    keywords are those of :meth:`set` for the alias fact.

    >>> mem.alias("Melanie", "Mel", source="chat-12")
    """
    from ..transcripts import alias_events
    fields = event_dict("set", source=source, reason=reason, actor=actor, recorded_at=recorded_at,
                    valid_from=valid_from, id=id)
    del fields["op"]
    return apply_many(mem, alias_events(subject, alias, fields))


def add_source(mem: StoreApi, id: str, *, kind: SourceKind, at: When, text: str = "", author: str | None = None,
               expires_at: When | None = None, relayed_by: str | None = None, recorded_at: When | None = None,
               actor: str | None = None, reason: str | None = None) -> Plan[WriteResult]:
    """Record a source (a message, email, tool output, document or import) that later events can
    cite with ``source=``; ``expires_at`` makes the facts it backs stop answering then;
    ``relayed_by`` names the agent that relayed ``author``'s words (every answer from it says so).

    >>> mem.add_source("email-7", kind="email", at="2024-03-01T09:00:00Z", text="Port is 8000.", author="ops")
    """
    return apply(mem, event_dict("source", id=id, kind=kind, at=at, text=text, author=author, expires_at=expires_at,
                             relayed_by=relayed_by, recorded_at=recorded_at, actor=actor, reason=reason))


def declare_topic(mem: StoreApi, name: str, cardinality: Literal["one", "many"] = "one", *,
                  ttl_seconds: int | None = None, recorded_at: When | None = None, source: str | None = None,
                  actor: str | None = None, reason: str | None = None, id: str | None = None) -> Plan[WriteResult]:
    """Declare a topic: ``cardinality`` one (a new value replaces the old) or many (values add
    up); ``ttl_seconds`` makes its facts expire that long after they are recorded.

    >>> mem.declare_topic("skills", "many")
    """
    return apply(mem, event_dict("topic", name=name, cardinality=cardinality, ttl_seconds=ttl_seconds,
                             recorded_at=recorded_at, source=source, actor=actor, reason=reason, id=id))


def set(mem: StoreApi, subject: str, topic: str, value: str | int | float | None = None, *,
        object: str | None = None, valid_from: When | None = None, valid_to: When | None = None,
        env: str | None = None, authority: Authority = "L1", status: Literal["confirmed", "candidate"] = "confirmed",
        confidence: float | None = None, session: str | None = None, ref: str | None = None,
        evidence: str | None = None, expires_at: When | None = None, source: str | None = None,
        recorded_at: When | None = None, actor: str | None = None, reason: str | None = None,
        id: str | None = None) -> Plan[WriteResult]:
    """Assert ``value`` (or ``object=`` an entity id) for (subject, topic[, env]), valid from
    ``valid_from`` (default: when recorded) to ``valid_to``; a ``candidate`` waits for
    :meth:`confirm`. Fields as in docs/format.md's ``set`` event.

    >>> mem.set("deploy", "port", "8000", valid_from="2024-03-01", source="email-7")
    """
    return apply(mem, event_dict("set", subject=subject, topic=topic, value=value, object=object,
                             valid_from=valid_from, valid_to=valid_to, env=env, authority=authority, status=status,
                             confidence=confidence, session=session, ref=ref, evidence=evidence,
                             expires_at=expires_at, source=source, recorded_at=recorded_at, actor=actor,
                             reason=reason, id=id))


def revoke(mem: StoreApi, subject: str, topic: str, *, value: str | int | float | None = None,
           env: str | None = None, authority: Authority = "L1", session: str | None = None,
           effective: When | None = None, source: str | None = None, recorded_at: When | None = None,
           actor: str | None = None, reason: str | None = None, id: str | None = None) -> Plan[WriteResult]:
    """End what holds for (subject, topic[, env]) — or only ``value`` of a many-valued topic —
    from ``effective`` (default: when recorded) on.

    >>> mem.revoke("deploy", "port", effective="2024-06-01")
    """
    return apply(mem, event_dict("revoke", subject=subject, topic=topic, value=value, env=env, authority=authority,
                             session=session, effective=effective, source=source, recorded_at=recorded_at,
                             actor=actor, reason=reason, id=id))


def retract(mem: StoreApi, ref: str | None = None, *, fact: str | None = None, source: str | None = None,
            recorded_at: When | None = None, actor: str | None = None, reason: str | None = None,
            id: str | None = None) -> Plan[WriteResult]:
    """Withdraw an assertion (by its ``ref``, or ``fact=`` id) as if it had never been made: from
    this record time on it takes no part, while a read with an earlier ``known_at`` still sees it.

    >>> mem.retract("a-17", reason="typo")
    """
    return _on_assertion(mem, "retract", ref, fact, source, recorded_at, actor, reason, id)


def confirm(mem: StoreApi, ref: str | None = None, *, fact: str | None = None, source: str | None = None,
            recorded_at: When | None = None, actor: str | None = None, reason: str | None = None,
            id: str | None = None) -> Plan[WriteResult]:
    """Confirm a candidate assertion (by its ``ref``, or ``fact=`` id): it answers from this record
    time on. Confirmed by its subject (or a delegate), an L2 candidate becomes an L1 statement;
    by anyone else it stays L2.

    >>> mem.confirm("a-17")
    """
    return _on_assertion(mem, "confirm", ref, fact, source, recorded_at, actor, reason, id)


def reject(mem: StoreApi, ref: str | None = None, *, fact: str | None = None, source: str | None = None,
           recorded_at: When | None = None, actor: str | None = None, reason: str | None = None,
           id: str | None = None) -> Plan[WriteResult]:
    """Reject a candidate assertion (by its ``ref``, or ``fact=`` id): it never answers.

    >>> mem.reject("a-17", reason="not what she said")
    """
    return _on_assertion(mem, "reject", ref, fact, source, recorded_at, actor, reason, id)


def _on_assertion(mem: StoreApi, op: str, ref: str | None, fact: str | None, source: str | None,
                  recorded_at: When | None, actor: str | None, reason: str | None, id: str | None) -> Plan[WriteResult]:
    """Apply ``retract``, ``confirm`` or ``reject`` of the assertion named by ``ref`` or ``fact``."""
    return apply(mem, event_dict(op, ref=ref, fact=fact, source=source, recorded_at=recorded_at, actor=actor,
                                 reason=reason, id=id))


def quote(mem: StoreApi, source: str, quotes: str, claims: list[dict[str, Any]] | None = None, *,
          recorded_at: When | None = None, actor: str | None = None, reason: str | None = None,
          id: str | None = None) -> Plan[WriteResult]:
    """Record that ``source`` quotes the source ``quotes``, with the ``claims`` it repeats
    (``{subject, topic, value | object, env?}``): a quote is evidence, not a new assertion.

    >>> mem.quote("email-9", "email-7", [{"subject": "deploy", "topic": "port", "value": "8000"}])
    """
    return apply(mem, event_dict("quote", source=source, quotes=quotes, claims=claims or [], recorded_at=recorded_at,
                             actor=actor, reason=reason, id=id))


def ingest(mem: StoreApi, text: str, *, id: str, speaker: str, at: When | None = None, about: str | None = None,
           session: str | None = None, kind: SourceKind = "message",
           drawn_as: Literal["stated", "inferred"] = "stated", relayed_by: str | None = None,
           recorded_at: When | None = None, actor: str | None = None, reason: str | None = None) -> Plan[WriteResult]:
    """Free text: the extractor draws the events; the message becomes their source. ``drawn_as``
    inferred (an assistant's words, not a person's) makes what is drawn an L2 candidate;
    ``relayed_by`` names the agent that relayed ``speaker``'s words (the speaker did not send them
    to the store): what is drawn stays the speaker's, and every answer from it carries the mark.

    >>> mem.ingest("I moved to Berlin last May.", id="m-1", speaker="Caroline", at="2023-06-01T10:00:00Z")
    """
    return apply(mem, event_dict("message", id=id, at=at or mem._clock(), speaker=speaker, text=text, about=about,
                             session=session, kind=kind, drawn_as=drawn_as, relayed_by=relayed_by,
                             recorded_at=recorded_at, actor=actor,
                             reason=reason))


def rebuild(mem: StoreApi, *, batch: int = 2000) -> Plan[int]:
    """Replay the ledger from empty and write only what differs from the projection, in one
    transaction (docs/governance.md, Rebuild); returns the events replayed.

    >>> mem.rebuild()
    42
    """
    return observe.observed_plan("rebuild", mem.tenant, ops.rebuild(mem.tenant, mem._clock, mem._extract, batch),
                                 lambda n: {"replayed": n})


def drop_tenant(mem: StoreApi, *, batch: int = 2_000) -> Plan[None]:
    """Delete everything this tenant has, ledger included. For tests and evaluation.

    >>> mem.drop_tenant()
    """
    return ops.drop_tenant(mem.tenant, batch)


def sweep(mem: StoreApi) -> Plan[int]:
    """Record the expiry of every fact whose time has come (an ``expire`` event); returns how many.

    >>> mem.sweep()
    0
    """
    return observe.observed_plan("sweep", mem.tenant, ops.sweep(mem.tenant, mem._clock, mem._extract),
                                 lambda n: {"expired": n})
