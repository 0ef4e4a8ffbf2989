"""The public surface of the store, defined once for the sync and the async client.

Every public method builds a plan (:mod:`graphmem.ops`) and hands it to ``self._run``. The sync
client's ``_run`` runs it and returns the result; the async client's returns a coroutine, so the
same methods are awaited there. Driver errors are translated in one place, :func:`translate`.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Callable, Iterable

from neo4j import exceptions as neo4j_errors

from . import observe, ops
from .config import env_config
from .errors import ConfigurationError, ConnectionError_, GraphMemError, QueryError, ValidationError
from .models import MessageEvent, check_ids
from .scope import bind_tenant
from .settings import Settings

__all__ = ["StoreApi", "from_driver", "translate", "utcnow"]

Clock = Callable[[], datetime]
DEFAULT_ACTOR = "owner"  # a client made without actor= (and no GRAPHMEM_ACTOR): the store's owner


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def from_driver(e: BaseException) -> bool:
    """Is ``e`` the driver's? Its own exception types always are; an ``OSError`` only when the
    innermost frame that is either the driver's or graphmem's (or a caller's) is the driver's: a
    socket the driver was reading, not a file an extractor or a plan was reading."""
    if not isinstance(e, OSError):
        return True
    deepest = None
    tb = e.__traceback__
    while tb is not None:
        module = tb.tb_frame.f_globals.get("__name__", "")
        if module == "neo4j" or module.startswith("neo4j."):
            deepest = "driver"
        elif not _stdlib(tb.tb_frame.f_code.co_filename):
            deepest = "ours"
        tb = tb.tb_next
    return deepest == "driver"


def _stdlib(filename: str) -> bool:
    import sysconfig
    return filename.startswith(sysconfig.get_paths()["stdlib"]) and "site-packages" not in filename


def translate(e: Exception, what: str) -> GraphMemError:
    """Driver errors to graphmem errors, in one place. Credentials never enter a message.

    Only the driver's connection failures (ServiceUnavailable, SessionExpired, an ``OSError`` the
    driver raised: :func:`from_driver`) become "no Neo4j answers"."""
    if isinstance(e, neo4j_errors.AuthError):
        return ConnectionError_("Neo4j refused the credentials (check NEO4J_USER / NEO4J_PASSWORD)")
    if isinstance(e, (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired, OSError)):
        return ConnectionError_(f"no Neo4j answers ({type(e).__name__}); start one with "
                                "'graphmem server start' or set NEO4J_URI")
    if isinstance(e, neo4j_errors.Neo4jError):
        return QueryError(f"{e.code}: {e.message}", query=what)
    if isinstance(e, neo4j_errors.DriverError):
        return ConnectionError_(f"driver error: {type(e).__name__}: {e}")
    return GraphMemError(str(e))


# What the runners catch; an OSError among them is translated only if from_driver() says so.
DRIVER_ERRORS = (neo4j_errors.Neo4jError, neo4j_errors.DriverError, OSError)


@bind_tenant
class StoreApi:
    """What ``GraphMem`` and ``AsyncGraphMem`` share: settings, tenant, and every public method."""

    settings: Settings
    tenant: str

    def __init__(self, settings: Settings | None, tenant: str, clock: Clock, extractor: Any,
                 embedder: Any = None, actor: str | None = None) -> None:
        if not isinstance(tenant, str) or not tenant.strip():
            raise ValidationError("tenant must be a non-empty string")
        self.settings = settings or Settings.from_env()
        self.tenant = tenant
        # Who this client writes as: every event it applies names an actor (DESIGN.md §5).
        self.actor = actor or env_config().actor or DEFAULT_ACTOR
        check_ids(actor=self.actor)
        self._clock = clock
        self._extractor = extractor
        self._embedder = embedder

    @property
    def embedder(self) -> Any:
        """The embedder of the vector leg: the one given, else GRAPHMEM_EMBEDDER's, else None (off)."""
        if self._embedder is None:
            from .embed import embedder_from_env
            self._embedder = embedder_from_env() or False
        return self._embedder or None

    def _connect(self, factory: Callable[..., Any]) -> Any:
        """A driver from the settings (sync or async factory); a bad URI is a ValidationError."""
        try:
            return factory(self.settings.uri, auth=self.settings.auth, notifications_min_severity="OFF")
        except (ValueError, neo4j_errors.ConfigurationError) as e:
            raise ValidationError(f"bad NEO4J_URI {self.settings.uri!r}: {e}") from e

    def _run(self, plan: ops.Plan[Any]) -> Any:  # pragma: no cover - defined by the clients
        raise NotImplementedError

    def _extract(self, message: MessageEvent, context: list[Any]) -> list[Any]:
        if self._extractor is None:
            from .extract import default_extractor
            self._extractor = default_extractor()
        start = observe.time.perf_counter()
        # An extractor that can also read episodes (the rule extractor's ``draw``) gives both.
        draw = getattr(self._extractor, "draw", None)
        drawn = list(draw(message, context) if callable(draw) else self._extractor.extract(message, context))
        observe.extraction_yield(self.tenant, message.id, 1, len(drawn), (observe.time.perf_counter() - start) * 1000)
        return drawn

    def _prepare(self, texts: list[str]) -> None:
        """Let the extractor parse a batch of message texts in one pass, if it can."""
        if not texts:
            return
        if self._extractor is None:
            from .extract import default_extractor
            self._extractor = default_extractor()
        prepare = getattr(self._extractor, "prepare", None)
        if callable(prepare):
            prepare(texts)

    # -- writes ----------------------------------------------------------------------------------

    def install_schema(self) -> Any:
        """Create graphmem's constraints and indexes (idempotent) and mark the database with the
        schema's version; ``graphmem schema`` runs this."""
        return self._run(ops.install_schema())

    def ensure_schema(self) -> Any:
        """Install the schema unless the database already carries this version's marker: one cheap
        read when it does (what a client runs when it is made). Returns whether it installed."""
        return self._run(ops.ensure_schema())

    def apply(self, event: Any) -> Any:
        """Validate and apply one event (a FORMAT.md dict, JSON text, or a model); one transaction.

        A malformed or refused event raises :class:`ValidationError` (or another
        :class:`GraphMemError`) and writes nothing.
        """
        return self._run(observe.observed_plan("apply", self.tenant, ops.apply(
            self.tenant, event, self._clock(), self._extract, self.actor), observe.write_summary))

    def apply_many(self, events: Iterable[Any]) -> Any:
        """Apply events in order, one transaction each; stops at the first refused event."""
        return self._run(observe.observed_plan("apply_many", self.tenant, ops.apply_many(
            self.tenant, events, self._clock, self._extract, self.actor), observe.write_summary))

    def apply_bulk(self, events: Iterable[Any], *, batch_size: int = 2000,
                   progress: Callable[[int], None] | None = None) -> Any:
        """Apply many events in order, ``batch_size`` to a transaction (the bulk import path).

        Every event is validated before anything is written. Each batch is atomic: an event the
        store refuses rolls its whole batch back and raises with the event's index; earlier
        batches stay applied. A bulk load is for this client's tenant only.
        """
        return self._run(observe.observed_plan("apply_bulk", self.tenant, ops.apply_bulk(
            self.tenant, events, self._clock, self._extract, batch_size, progress, self.actor, self._prepare),
            observe.write_summary))

    def ingest_bulk(self, messages: Iterable[dict[str, Any]], *, batch_size: int = 500,
                    progress: Callable[[int], None] | None = None, embed: bool = True) -> Any:
        """A transcript at once: each message ``{id, speaker, text, at?, session?, about?, kind?}``
        goes through the extractor like :meth:`ingest`, parsed in batches, ``batch_size`` messages
        to a transaction, then embedded for recall. Ids are idempotency ids: loading the same
        transcript twice writes nothing new. Every message is validated before anything is written.

        >>> mem.ingest_bulk([{"id": "D1:1", "speaker": "Caroline", "at": "2023-05-08T13:56:00Z",
        ...                   "text": "I went to a support group yesterday."}])
        """
        from .transcripts import ingest_bulk
        return self._run(observe.observed_plan("ingest_bulk", self.tenant, ingest_bulk(
            self.tenant, messages, self._clock, self._extract, self._prepare, self.embedder if embed else None,
            batch_size, progress, self.actor), observe.write_summary))

    def alias(self, subject: str, alias: str, **fields: Any) -> Any:
        """Record another name for a person or thing ("Mel" for "Melanie"): recall resolves it.

        >>> mem.alias("Melanie", "Mel")
        """
        from .transcripts import alias_events
        return self.apply_many(alias_events(subject, alias, fields))

    def add_source(self, id: str, *, kind: str, at: Any, text: str = "", author: str | None = None,
                   **extra: Any) -> Any:
        return self.apply({"op": "source", "id": id, "kind": kind, "at": at, "text": text, "author": author, **extra})

    def declare_topic(self, name: str, cardinality: str = "one", **extra: Any) -> Any:
        return self.apply({"op": "topic", "name": name, "cardinality": cardinality, **extra})

    def set(self, subject: str, topic: str, value: Any = None, **fields: Any) -> Any:
        """Assert ``value`` (or ``object=`` an entity id) for (subject, topic[, env])."""
        return self.apply({"op": "set", "subject": subject, "topic": topic, "value": value, **fields})

    def revoke(self, subject: str, topic: str, **fields: Any) -> Any:
        return self.apply({"op": "revoke", "subject": subject, "topic": topic, **fields})

    def retract(self, ref: str, **fields: Any) -> Any:
        return self.apply({"op": "retract", "ref": ref, **fields})

    def confirm(self, ref: str, **fields: Any) -> Any:
        return self.apply({"op": "confirm", "ref": ref, **fields})

    def reject(self, ref: str, **fields: Any) -> Any:
        return self.apply({"op": "reject", "ref": ref, **fields})

    def quote(self, source: str, quotes: str, claims: list[dict[str, Any]] | None = None, **fields: Any) -> Any:
        return self.apply({"op": "quote", "source": source, "quotes": quotes, "claims": claims or [], **fields})

    def ingest(self, text: str, *, id: str, speaker: str, at: Any = None, about: str | None = None,
               session: str | None = None, kind: str = "message", **fields: Any) -> Any:
        """Free text: the extractor draws the events; the message becomes their source."""
        return self.apply({"op": "message", "id": id, "at": at or self._clock(), "speaker": speaker,
                           "text": text, "about": about, "session": session, "kind": kind, **fields})

    def rebuild(self, *, batch: int = 2000) -> Any:
        """Drop the projection and replay the ledger from empty; returns the events replayed."""
        return self._run(observe.observed_plan("rebuild", self.tenant, ops.rebuild(
            self.tenant, self._clock, self._extract, batch), lambda n: {"replayed": n}))

    def drop_tenant(self, *, batch: int = 2_000) -> Any:
        """Delete everything this tenant has, ledger included. For tests and evaluation."""
        return self._run(ops.drop_tenant(self.tenant, batch))

    def sweep(self) -> Any:
        """Record the expiry of every fact whose time has come (an ``expire`` event); returns how many."""
        return self._run(observe.observed_plan("sweep", self.tenant, ops.sweep(self.tenant, self._clock, self._extract),
                                               lambda n: {"expired": n}))

    def erase(self, *, subject: str | None = None, source: str | None = None, actor: str | None = None,
              reason: str | None = None) -> Any:
        """Right to be forgotten: remove a subject's or a source's content everywhere, keep a
        content-free tombstone in the ledger, rebuild the projection (graphmem.governance)."""
        from .governance import erase
        return self._run(observe.observed_plan("erase", self.tenant, erase(
            self.tenant, subject=subject, source=source, actor=actor or self.actor, reason=reason, clock=self._clock,
            expand=self._extract), observe.erase_summary))

    def request_erase(self, *, subject: str | None = None, source: str | None = None,
                      reason: str | None = None) -> Any:
        """File an erase request: what it would remove stops taking part at once (reversibly);
        nothing is erased until a person confirms (graphmem.erasure). Returns the request."""
        from .erasure import request_erase
        return self._run(request_erase(self.tenant, subject=subject, source=source, actor=self.actor,
                                       reason=reason, now=self._clock(), expand=self._extract))

    def erase_request(self, request: str) -> Any:
        """A pending erase request: what it would remove, who asked, why."""
        from .erasure import erase_request
        return self._run(erase_request(self.tenant, request))

    def confirm_erase(self, request: str, *, reason: str | None = None) -> Any:
        """Confirm a pending erase request, as this client's actor: the irreversible erase."""
        from .erasure import confirm_erase
        return self._run(observe.observed_plan("erase", self.tenant, confirm_erase(
            self.tenant, request, actor=self.actor, reason=reason, clock=self._clock, expand=self._extract),
            observe.erase_summary, {"request": request}))

    def cancel_erase(self, request: str, *, reason: str | None = None) -> Any:
        """Withdraw a pending erase request: what it held back takes part again from now on."""
        from .erasure import cancel_erase
        return self._run(cancel_erase(self.tenant, request, actor=self.actor, reason=reason, now=self._clock(),
                                      expand=self._extract))

    def verify(self, *, replay: bool = True) -> Any:
        """Check this tenant's hash-chained ledger and (``replay``) that the projection is what a
        replay of the ledger gives (graphmem.chain); returns ok, the first break, the head hash."""
        from .chain import verify
        return self._run(verify(self.tenant, self._clock, self._extract, replay=replay))

    def audit(self, *, since: Any = "1970-01-01", until: Any = None, subject: str | None = None) -> Any:
        """Ledger entries recorded in [since, until): op, time, actor, reason, facts, what they replaced."""
        from .governance import audit
        from .models import parse_time
        until_t = parse_time(until) if until is not None else self._clock()
        return self._run(audit(self.tenant, since=parse_time(since).isoformat(), until=until_t.isoformat(),
                               subject=subject))

    def working(self, session: str, *, budget_tokens: int | None = None, strategy: str | None = None,
                **policy: Any) -> Any:
        """A session's working memory (graphmem.working): items under a token budget, checkpoints
        to resume from, and the end gate ``close(outcome)``. Giving a budget or strategy records a
        new policy for the session at its next write; otherwise the stored one (or the default) holds."""
        import pydantic

        from .models import describe_errors
        from .working import WorkingMemory, WorkingPolicy
        given = {k: v for k, v in (("budget_tokens", budget_tokens), ("strategy", strategy)) if v is not None}
        given.update(policy)
        try:
            chosen = WorkingPolicy(**given) if given else None
        except pydantic.ValidationError as e:  # one line per knob, not pydantic's multi-line report
            raise ValidationError(f"bad working-memory policy: {describe_errors(e)}") from e
        return WorkingMemory(self, session, chosen)

    def working_sessions(self, *, status: str | None = None, limit: int = 100) -> Any:
        """This tenant's working sessions (``status`` open or closed), most recently active first."""
        from .working_store import sessions
        return self._run(sessions(self.tenant, status, limit))

    def stats(self, *, since: Any = None) -> Any:
        """How this tenant's memory behaves (graphmem.stats): writes by op and author since ``since``,
        candidates waiting, open conflicts, stale summaries, open working sessions, and from recorded
        outcomes the task success rate, repeated failures, wrong-memory rate and tokens per context."""
        from .stats import stats
        return self._run(stats(self.tenant, self._clock(), since))

    @property
    def playbooks(self) -> Any:
        """L3 experience cards and L4 workflows of this tenant (graphmem.playbooks)."""
        from .playbooks import Playbooks
        return Playbooks(self)

    # -- recall (graphmem.recall, graphmem.summaries, graphmem.userpage) ---------------------------

    def context(self, task: str, **kw: Any) -> Any:
        """What an agent should know for ``task``: a :class:`~graphmem.memory_context.MemoryContext`
        (facts with validity, source, version, authority and warnings; the messages that match;
        history for questions about the past; rules and cards; a summary) fitted to
        ``budget_tokens``. Keywords: subject, env, session, valid_at, known_at, budget_tokens,
        include_candidates, hops, limit, area, config (a RecallConfig or a preset name: see
        graphmem.recall.context and graphmem.recall_config)."""
        from .recall import context
        return self._run(observe.observed_plan("context", self.tenant, context(
            self.tenant, self._clock(), task, embedder=self.embedder, **kw), observe.context_summary))

    def summary(self, subject: str, topic: str | None = None, *, rebuild: bool = True) -> Any:
        """The subject's (or one topic's) deterministic summary; a stale one is rebuilt first, or
        with ``rebuild=False`` refused with :class:`~graphmem.errors.StaleError`."""
        from .summaries import summary
        return self._run(summary(self.tenant, self._clock(), subject, topic, rebuild=rebuild))

    def user_page(self, subject: str) -> Any:
        """The subject's confirmed, explicitly stated facts as a ``user.md`` page (a projection)."""
        from .userpage import show
        return self._run(show(self.tenant, self._clock(), subject))

    def apply_user_page(self, subject: str, text: str, *, actor: str | None = None) -> Any:
        """Turn the edits of a user page into ledger events (applied atomically); returns them."""
        from .userpage import apply_page
        return self._run(apply_page(self.tenant, self._clock(), self._clock, self._extract, subject, text,
                                    actor or self.actor))

    def embed_pending(self, *, limit: int = 1000) -> Any:
        """Bring the fact embeddings up to the ledger (the vector leg); returns how many were embedded."""
        from .recall import embed_pending, ensure_vector_index
        embedder = self.embedder
        if embedder is None:
            raise ConfigurationError("no embedder: pass embedder= or set GRAPHMEM_EMBEDDER=hashing")

        def plan() -> ops.Plan[int]:
            yield from ensure_vector_index(self.tenant, embedder.dimensions)
            return (yield from embed_pending(self.tenant, embedder, limit=limit, rounds=10_000))
        return self._run(plan())

    # -- reads -----------------------------------------------------------------------------------

    def round_trip(self) -> Any:
        """One read that does nothing (``RETURN 1``) through the very path every read takes: the
        floor under a read's latency (``graphmem bench`` reports as_of against it)."""
        return self._run(ops.round_trip())

    def as_of(self, subject: str, topic: str, **kw: Any) -> Any:
        """What holds at ``valid_at`` as known at ``known_at`` (both default now); see ops.as_of."""
        return self._run(ops.as_of(self.tenant, self._clock(), subject, topic, **kw))

    def history(self, subject: str, topic: str, **kw: Any) -> Any:
        """The valid-time timeline as known at ``known_at``: one entry per stretch, in order."""
        return self._run(ops.history(self.tenant, self._clock(), subject, topic, **kw))

    def why(self, subject: str, topic: str, **kw: Any) -> Any:
        """The source behind the answer and the change point (and source) it replaced."""
        return self._run(ops.why(self.tenant, self._clock(), subject, topic, **kw))

    def path(self, start: str, path: list[str], **kw: Any) -> Any:
        """Follow entity-valued topics from ``start``, every hop at the same (valid_at, known_at)."""
        return self._run(ops.path(self.tenant, self._clock(), start, path, **kw))

    def episodes(self, *, who: str | None = None, since: Any = None, until: Any = None, text: str | None = None,
                 known_at: Any = None, limit: int = 50) -> Any:
        """What people did, and when: stored episodes (:class:`~graphmem.models.Episode`) whose
        ``[start, end)`` overlaps ``[since, until)``, of ``who``, whose "what" or place contains
        ``text``, as known at ``known_at``; newest first (graphmem.episode_store)."""
        from .episode_store import episodes
        return self._run(episodes(self.tenant, self._clock(), who=who, since=since, until=until, text=text,
                                  known_at=known_at, limit=limit))

    def assertions(self, subject: str, topic: str, *, env: str | None = None) -> Any:
        """Every assertion ever made about (subject, topic, env), as the rules see them."""
        return self._run(ops.assertions(self.tenant, subject, topic, env))

    def events_page(self, *, after: int = 0, limit: int = 1000) -> Any:
        """Up to ``limit`` ledger entries after sequence number ``after``, in order."""
        return self._run(ops.events_page(self.tenant, after, limit))
