"""The public operations of the store, defined once for the sync and the async client.

Each function takes the client (``mem``, a :class:`~graphmem.store.api.StoreApi`) and returns a plan
(:mod:`graphmem.store.ops`): no I/O here. ``tools/gen_faces.py`` reads this module and writes
``graphmem/_faces.py``, whose typed methods run the plan — ``GraphMem.as_of(...) -> Answer``,
``await AsyncGraphMem.as_of(...) -> Answer``. After changing a signature or docstring here, run
``python tools/gen_faces.py`` (tests/unit/test_faces.py fails while the faces drift).

Docstring examples are written for the sync client; on the async one, ``await`` the call.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable, Iterable, Literal

from . import observe, ops
from ..core.errors import ConfigurationError
from ..core.models import Answer, Authority, HistoryEntry, SourceKind, Why, WriteResult
from .ops import Plan

if TYPE_CHECKING:
    from .api import StoreApi
    from ..recall.memory_context import MemoryContext, SummaryView
    from ..core.models import Episode
    from ..recall.recall_config import RecallConfig
    from ..governance.stats import Stats

__all__ = [
    "When", "install_schema", "ensure_schema", "apply", "apply_many", "apply_bulk", "ingest_bulk", "alias",
    "add_source", "declare_topic", "set", "revoke", "retract", "confirm", "reject", "quote", "ingest", "rebuild",
    "drop_tenant", "sweep", "erase", "request_erase", "erase_request", "confirm_erase", "cancel_erase", "verify",
    "audit", "working_sessions", "stats", "context", "summary", "user_page", "apply_user_page", "embed_pending",
    "round_trip", "as_of", "history", "why", "path", "episodes", "assertions", "events_page",
]

When = datetime | str
"""A time: an aware datetime or ISO 8601 text (a date alone is midnight UTC)."""


def _event(op: str, **fields: Any) -> dict[str, Any]:
    """A FORMAT.md event dict of the fields given (None means not given: the model's default)."""
    return {"op": op, **{k: v for k, v in fields.items() if v is not None}}


# -- writes -------------------------------------------------------------------------------------


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
    """Validate and apply one event (a FORMAT.md dict, JSON text, or a model); one transaction.
    A malformed or refused event raises :class:`~graphmem.core.errors.ValidationError` (or another
    :class:`~graphmem.core.errors.GraphMemError`) and writes nothing.

    >>> mem.apply({"op": "set", "subject": "deploy", "topic": "port", "value": "8000"})
    """
    return observe.observed_plan("apply", mem.tenant, ops.apply(
        mem.tenant, event, mem._clock(), mem._extract, mem.actor), observe.write_summary)


def apply_many(mem: StoreApi, events: Iterable[Any]) -> Plan[list[WriteResult]]:
    """Apply events in order, one transaction each; stops at the first refused event.

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
    from .transcripts import ingest_bulk as plan
    return observe.observed_plan("ingest_bulk", mem.tenant, plan(
        mem.tenant, messages, mem._clock, mem._extract, mem._prepare, mem.embedder if embed else None,
        batch_size, progress, mem.actor), observe.write_summary)


def alias(mem: StoreApi, subject: str, alias: str, *, source: str | None = None, reason: str | None = None,
          actor: str | None = None, recorded_at: When | None = None, valid_from: When | None = None,
          id: str | None = None) -> Plan[list[WriteResult]]:
    """Record another name for a person or thing ("Mel" for "Melanie"): recall resolves it. The
    keywords are those of :meth:`set` for the alias fact.

    >>> mem.alias("Melanie", "Mel", source="chat-12")
    """
    from .transcripts import alias_events
    fields = _event("set", source=source, reason=reason, actor=actor, recorded_at=recorded_at,
                    valid_from=valid_from, id=id)
    del fields["op"]
    return apply_many(mem, alias_events(subject, alias, fields))


def add_source(mem: StoreApi, id: str, *, kind: SourceKind, at: When, text: str = "", author: str | None = None,
               expires_at: When | None = None, recorded_at: When | None = None, actor: str | None = None,
               reason: str | None = None) -> Plan[WriteResult]:
    """Record a source (a message, email, tool output, document or import) that later events can
    cite with ``source=``; ``expires_at`` makes the facts it backs stop answering then.

    >>> mem.add_source("email-7", kind="email", at="2024-03-01T09:00:00Z", text="Port is 8000.", author="ops")
    """
    return apply(mem, _event("source", id=id, kind=kind, at=at, text=text, author=author, expires_at=expires_at,
                             recorded_at=recorded_at, actor=actor, reason=reason))


def declare_topic(mem: StoreApi, name: str, cardinality: Literal["one", "many"] = "one", *,
                  ttl_seconds: int | None = None, recorded_at: When | None = None, source: str | None = None,
                  actor: str | None = None, reason: str | None = None, id: str | None = None) -> Plan[WriteResult]:
    """Declare a topic: ``cardinality`` one (a new value replaces the old) or many (values add
    up); ``ttl_seconds`` makes its facts expire that long after they are recorded.

    >>> mem.declare_topic("skills", "many")
    """
    return apply(mem, _event("topic", name=name, cardinality=cardinality, ttl_seconds=ttl_seconds,
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
    :meth:`confirm`. Fields as in FORMAT.md's ``set`` event.

    >>> mem.set("deploy", "port", "8000", valid_from="2024-03-01", source="email-7")
    """
    return apply(mem, _event("set", subject=subject, topic=topic, value=value, object=object,
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
    return apply(mem, _event("revoke", subject=subject, topic=topic, value=value, env=env, authority=authority,
                             session=session, effective=effective, source=source, recorded_at=recorded_at,
                             actor=actor, reason=reason, id=id))


def retract(mem: StoreApi, ref: str | None = None, *, fact: str | None = None, source: str | None = None,
            recorded_at: When | None = None, actor: str | None = None, reason: str | None = None,
            id: str | None = None) -> Plan[WriteResult]:
    """Withdraw an assertion (by its ``ref``, or ``fact=`` id) as if it had never been made.

    >>> mem.retract("a-17", reason="typo")
    """
    return apply(mem, _event("retract", ref=ref, fact=fact, source=source, recorded_at=recorded_at, actor=actor,
                             reason=reason, id=id))


def confirm(mem: StoreApi, ref: str | None = None, *, fact: str | None = None, source: str | None = None,
            recorded_at: When | None = None, actor: str | None = None, reason: str | None = None,
            id: str | None = None) -> Plan[WriteResult]:
    """Confirm a candidate assertion (by its ``ref``, or ``fact=`` id): it starts to answer.

    >>> mem.confirm("a-17")
    """
    return apply(mem, _event("confirm", ref=ref, fact=fact, source=source, recorded_at=recorded_at, actor=actor,
                             reason=reason, id=id))


def reject(mem: StoreApi, ref: str | None = None, *, fact: str | None = None, source: str | None = None,
           recorded_at: When | None = None, actor: str | None = None, reason: str | None = None,
           id: str | None = None) -> Plan[WriteResult]:
    """Reject a candidate assertion (by its ``ref``, or ``fact=`` id): it never answers.

    >>> mem.reject("a-17", reason="not what she said")
    """
    return apply(mem, _event("reject", ref=ref, fact=fact, source=source, recorded_at=recorded_at, actor=actor,
                             reason=reason, id=id))


def quote(mem: StoreApi, source: str, quotes: str, claims: list[dict[str, Any]] | None = None, *,
          recorded_at: When | None = None, actor: str | None = None, reason: str | None = None,
          id: str | None = None) -> Plan[WriteResult]:
    """Record that ``source`` quotes the source ``quotes``, with the ``claims`` it repeats
    (``{subject, topic, value | object, env?}``): a quote is evidence, not a new assertion.

    >>> mem.quote("email-9", "email-7", [{"subject": "deploy", "topic": "port", "value": "8000"}])
    """
    return apply(mem, _event("quote", source=source, quotes=quotes, claims=claims or [], recorded_at=recorded_at,
                             actor=actor, reason=reason, id=id))


def ingest(mem: StoreApi, text: str, *, id: str, speaker: str, at: When | None = None, about: str | None = None,
           session: str | None = None, kind: SourceKind = "message",
           drawn_as: Literal["stated", "inferred"] = "stated", recorded_at: When | None = None,
           actor: str | None = None, reason: str | None = None) -> Plan[WriteResult]:
    """Free text: the extractor draws the events; the message becomes their source. ``drawn_as``
    inferred (an assistant's words, not a person's) makes what is drawn an L2 candidate.

    >>> mem.ingest("I moved to Berlin last May.", id="m-1", speaker="Caroline", at="2023-06-01T10:00:00Z")
    """
    return apply(mem, _event("message", id=id, at=at or mem._clock(), speaker=speaker, text=text, about=about,
                             session=session, kind=kind, drawn_as=drawn_as, recorded_at=recorded_at, actor=actor,
                             reason=reason))


def rebuild(mem: StoreApi, *, batch: int = 2000) -> Plan[int]:
    """Drop the projection and replay the ledger from empty; returns the events replayed.

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


def erase(mem: StoreApi, *, subject: str | None = None, source: str | None = None, actor: str | None = None,
          reason: str | None = None) -> Plan[dict[str, Any]]:
    """Right to be forgotten: remove a subject's or a source's content everywhere, keep a
    content-free tombstone in the ledger, rebuild the projection (graphmem.governance.governance).

    >>> mem.erase(subject="caroline", reason="user request")
    """
    from ..governance.governance import erase as plan
    return observe.observed_plan("erase", mem.tenant, plan(
        mem.tenant, subject=subject, source=source, actor=actor or mem.actor, reason=reason, clock=mem._clock,
        expand=mem._extract), observe.erase_summary)


def request_erase(mem: StoreApi, *, subject: str | None = None, source: str | None = None,
                  reason: str | None = None) -> Plan[dict[str, Any]]:
    """File an erase request: what it would remove stops taking part at once (reversibly);
    nothing is erased until a person confirms (graphmem.governance.erasure). Returns the request.

    >>> mem.request_erase(subject="caroline", reason="asked to be forgotten")["request"]
    """
    from ..governance.erasure import request_erase as plan
    return plan(mem.tenant, subject=subject, source=source, actor=mem.actor, reason=reason, now=mem._clock(),
                expand=mem._extract)


def erase_request(mem: StoreApi, request: str) -> Plan[dict[str, Any]]:
    """A pending erase request: what it would remove, who asked, why.

    >>> mem.erase_request("er-1")["would_remove"]["facts"]
    """
    from ..governance.erasure import erase_request as plan
    return plan(mem.tenant, request)


def confirm_erase(mem: StoreApi, request: str, *, reason: str | None = None) -> Plan[dict[str, Any]]:
    """Confirm a pending erase request, as this client's actor: the irreversible erase.

    >>> mem.confirm_erase("er-1", reason="verified identity")
    """
    from ..governance.erasure import confirm_erase as plan
    return observe.observed_plan("erase", mem.tenant, plan(
        mem.tenant, request, actor=mem.actor, reason=reason, clock=mem._clock, expand=mem._extract),
        observe.erase_summary, {"request": request})


def cancel_erase(mem: StoreApi, request: str, *, reason: str | None = None) -> Plan[dict[str, Any]]:
    """Withdraw a pending erase request: what it held back takes part again from now on.

    >>> mem.cancel_erase("er-1", reason="filed by mistake")
    """
    from ..governance.erasure import cancel_erase as plan
    return plan(mem.tenant, request, actor=mem.actor, reason=reason, now=mem._clock(), expand=mem._extract)


def verify(mem: StoreApi, *, replay: bool = True) -> Plan[dict[str, Any]]:
    """Check this tenant's hash-chained ledger and (``replay``) that the projection is what a
    replay of the ledger gives (graphmem.store.chain); returns ok, the first break, the head hash.

    >>> mem.verify()["ok"]
    True
    """
    from .chain import verify as plan
    return plan(mem.tenant, mem._clock, mem._extract, replay=replay)


def audit(mem: StoreApi, *, since: When = "1970-01-01", until: When | None = None,
          subject: str | None = None) -> Plan[list[dict[str, Any]]]:
    """Ledger entries recorded in [since, until): op, time, actor, reason, facts, what they replaced.

    >>> mem.audit(since="2024-03-01", subject="deploy")
    """
    from ..governance.governance import audit as plan
    from ..core.models import parse_time
    until_t = parse_time(until) if until is not None else mem._clock()
    return plan(mem.tenant, since=parse_time(since).isoformat(), until=until_t.isoformat(), subject=subject)


def working_sessions(mem: StoreApi, *, status: Literal["open", "closed"] | None = None,
                     limit: int = 100) -> Plan[list[dict[str, Any]]]:
    """This tenant's working sessions (``status`` open or closed), most recently active first.

    >>> mem.working_sessions(status="open")
    """
    from ..working.working_store import sessions
    return sessions(mem.tenant, status, limit)


def stats(mem: StoreApi, *, since: When | None = None) -> Plan[Stats]:
    """How this tenant's memory behaves (graphmem.governance.stats): writes by op and author since ``since``,
    candidates waiting, open conflicts, stale summaries, open working sessions, and from recorded
    outcomes the task success rate, repeated failures, wrong-memory rate and tokens per context.

    >>> mem.stats(since="2024-03-01").candidates_waiting
    """
    from ..governance.stats import stats as plan
    return plan(mem.tenant, mem._clock(), since)


# -- recall (graphmem.recall.recall, graphmem.recall.summaries, graphmem.recall.userpage) -----------------------------


def context(mem: StoreApi, task: str, *, subject: str | None = None, env: str | None = None,
            session: str | None = None, valid_at: When | None = None, known_at: When | None = None,
            budget_tokens: int = 1500, include_candidates: bool = False, hops: int | None = None,
            limit: int | None = None, area: str | None = None, summary: bool = True, playbooks: bool = True,
            stale_after_days: int | None = None, expiring_within_days: int | None = None,
            config: RecallConfig | str | None = None, gaps: bool = True) -> Plan[MemoryContext]:
    """What an agent should know for ``task``: a :class:`~graphmem.recall.memory_context.MemoryContext`
    (facts with validity, source, version, authority and warnings; the messages that match;
    history for questions about the past; rules and cards; a summary) fitted to
    ``budget_tokens``. ``config`` is a RecallConfig or a preset name; ``hops``, ``limit``,
    ``stale_after_days`` and ``expiring_within_days`` override it (graphmem.recall.recall.context).

    >>> mem.context("which port does deploy use?", subject="deploy", budget_tokens=800).render()
    """
    from ..recall.recall import context as plan
    return observe.observed_plan("context", mem.tenant, plan(
        mem.tenant, mem._clock(), task, subject=subject, env=env, session=session, valid_at=valid_at,
        known_at=known_at, budget_tokens=budget_tokens, include_candidates=include_candidates, hops=hops,
        limit=limit, area=area, embedder=mem.embedder, summary=summary, playbooks=playbooks,
        stale_after_days=stale_after_days, expiring_within_days=expiring_within_days, config=config, gaps=gaps),
        observe.context_summary)


def summary(mem: StoreApi, subject: str, topic: str | None = None, *, rebuild: bool = True) -> Plan[SummaryView]:
    """The subject's (or one topic's) deterministic summary; a stale one is rebuilt first, or
    with ``rebuild=False`` refused with :class:`~graphmem.core.errors.StaleError`.

    >>> mem.summary("deploy").text
    """
    from ..recall.summaries import summary as plan
    return plan(mem.tenant, mem._clock(), subject, topic, rebuild=rebuild)


def user_page(mem: StoreApi, subject: str) -> Plan[str]:
    """The subject's confirmed, explicitly stated facts as a ``user.md`` page (a projection).

    >>> print(mem.user_page("caroline"))
    """
    from ..recall.userpage import show
    return show(mem.tenant, mem._clock(), subject)


def apply_user_page(mem: StoreApi, subject: str, text: str, *,
                    actor: str | None = None) -> Plan[list[dict[str, Any]]]:
    """Turn the edits of a user page into ledger events (applied atomically); returns them.

    >>> mem.apply_user_page("caroline", edited_text)
    """
    from ..recall.userpage import apply_page
    return apply_page(mem.tenant, mem._clock(), mem._clock, mem._extract, subject, text, actor or mem.actor)


def embed_pending(mem: StoreApi, *, limit: int = 1000) -> Plan[int]:
    """Bring the fact embeddings up to the ledger (the vector leg); returns how many were embedded.

    >>> GraphMem(tenant="acme", embedder=HashingEmbedder()).embed_pending()
    """
    from ..recall.vectors import embed_pending as pending
    from ..recall.vectors import ensure_vector_index
    embedder = mem.embedder
    if embedder is None:
        raise ConfigurationError("no embedder: pass embedder= or set GRAPHMEM_EMBEDDER=hashing")

    def plan() -> Plan[int]:
        yield from ensure_vector_index(mem.tenant, embedder.dimensions)
        return (yield from pending(mem.tenant, embedder, limit=limit, rounds=10_000))
    return plan()


# -- reads --------------------------------------------------------------------------------------


def round_trip(mem: StoreApi) -> Plan[int]:
    """One read that does nothing (``RETURN 1``) through the very path every read takes: the
    floor under a read's latency (``graphmem bench`` reports as_of against it).

    >>> mem.round_trip()
    1
    """
    return ops.round_trip()


def as_of(mem: StoreApi, subject: str, topic: str, *, valid_at: When | None = None, known_at: When | None = None,
          env: str | None = None, session: str | None = None, include_candidates: bool = False) -> Plan[Answer]:
    """What holds for (subject, topic[, env]) at ``valid_at`` as known at ``known_at`` (both
    default now): an :class:`~graphmem.core.models.Answer` with the value (or values, or a conflict)
    and its source.

    >>> mem.as_of("deploy", "port", valid_at="2024-04-01").value
    '8000'
    """
    return ops.as_of(mem.tenant, mem._clock(), subject, topic, valid_at=valid_at, known_at=known_at, env=env,
                     session=session, include_candidates=include_candidates)


def history(mem: StoreApi, subject: str, topic: str, *, env: str | None = None, known_at: When | None = None,
            session: str | None = None, include_candidates: bool = False) -> Plan[list[HistoryEntry]]:
    """The valid-time timeline as known at ``known_at``: one entry per stretch, in order.

    >>> [(e.valid_from, e.value) for e in mem.history("deploy", "port")]
    """
    return ops.history(mem.tenant, mem._clock(), subject, topic, env=env, known_at=known_at, session=session,
                       include_candidates=include_candidates)


def why(mem: StoreApi, subject: str, topic: str, *, valid_at: When | None = None, known_at: When | None = None,
        env: str | None = None, session: str | None = None, include_candidates: bool = False) -> Plan[Why]:
    """The source behind the answer and the change point (and source) it replaced.

    >>> mem.why("deploy", "port").source
    """
    return ops.why(mem.tenant, mem._clock(), subject, topic, valid_at=valid_at, known_at=known_at, env=env,
                   session=session, include_candidates=include_candidates)


def path(mem: StoreApi, start: str, path: list[str], *, valid_at: When | None = None, known_at: When | None = None,
         env: str | None = None, session: str | None = None, include_candidates: bool = False) -> Plan[Answer]:
    """Follow entity-valued topics from ``start``, every hop at the same (valid_at, known_at).

    >>> mem.path("caroline", ["employer", "city"]).value
    """
    return ops.path(mem.tenant, mem._clock(), start, path, valid_at=valid_at, known_at=known_at, env=env,
                    session=session, include_candidates=include_candidates)


def episodes(mem: StoreApi, *, who: str | None = None, since: When | None = None, until: When | None = None,
             text: str | None = None, known_at: When | None = None, limit: int = 50) -> Plan[list[Episode]]:
    """What people did, and when: stored episodes (:class:`~graphmem.core.models.Episode`) whose
    ``[start, end)`` overlaps ``[since, until)``, of ``who``, whose "what" or place contains
    ``text``, as known at ``known_at``; newest first (graphmem.recall.episode_store).

    >>> mem.episodes(who="caroline", since="2023-05-01", until="2023-06-01")
    """
    from ..recall.episode_store import episodes as plan
    return plan(mem.tenant, mem._clock(), who=who, since=since, until=until, text=text, known_at=known_at,
                limit=limit)


def assertions(mem: StoreApi, subject: str, topic: str, *, env: str | None = None) -> Plan[list[Any]]:
    """Every assertion ever made about (subject, topic, env), as the rules see them.

    >>> len(mem.assertions("deploy", "port"))
    """
    return ops.assertions(mem.tenant, subject, topic, env)


def events_page(mem: StoreApi, *, after: int = 0, limit: int = 1000) -> Plan[list[dict[str, Any]]]:
    """Up to ``limit`` ledger entries after sequence number ``after``, in order.

    >>> [e["op"] for e in mem.events_page(limit=10)]
    """
    return ops.events_page(mem.tenant, after, limit)

