"""The public surface of the store, defined once for the sync and the async client.

Every public operation is a function of :mod:`graphmem.store.surface` that builds a plan
(:mod:`graphmem.store.ops`); :mod:`graphmem.store.faces` (generated from it) gives each a typed method that
hands the plan to ``self._run`` — the sync client's runs it and returns the result, the async
client's is awaited. :class:`StoreApi` holds what both share: settings, tenant, actor, clock,
extractor and embedder. Driver errors are translated in one place, :func:`translate`.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Callable, Iterator

from neo4j import exceptions as neo4j_errors

from . import observe, ops
from ..core.config import env_config
from ..core.errors import GraphMemError, Neo4jConnectionError, QueryError, ValidationError
from ..core.fields import check_ids
from ..core.scope import bind_tenant, check_tenant
from .settings import Settings

if TYPE_CHECKING:
    from ..core.events import MessageEvent

__all__ = ["READ_RETRY_SECONDS", "StoreApi", "from_driver", "read_retry_delays", "retryable", "settings_of", "translate",
           "utcnow"]

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


def translate(e: Exception, what: str, settings: Settings | None = None) -> GraphMemError:
    """Driver errors to graphmem errors, in one place. Credentials never enter a message.

    Only the driver's connection failures (ServiceUnavailable, SessionExpired, an ``OSError`` the
    driver raised: :func:`from_driver`) become "no Neo4j answers"; with the client's ``settings``
    the message names the URI tried and what to check for where it came from (an argument, NEO4J_URI
    or the default local server: :meth:`Settings.unreachable`)."""
    if isinstance(e, neo4j_errors.AuthError):
        at = f" at {settings.uri}" if settings is not None else ""
        return Neo4jConnectionError(f"Neo4j{at} refused the credentials (check NEO4J_USER / NEO4J_PASSWORD, "
                                    "or GraphMem(user=..., password=...))")
    if isinstance(e, (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired, OSError)):
        if settings is not None:
            return Neo4jConnectionError(settings.unreachable(type(e).__name__))
        return Neo4jConnectionError(f"no Neo4j answers ({type(e).__name__}); start one with "
                                    "'graphmem server start' or set NEO4J_URI")
    if isinstance(e, neo4j_errors.Neo4jError):
        return QueryError(f"{e.code}: {e.message}", query=what)
    if isinstance(e, neo4j_errors.DriverError):
        return Neo4jConnectionError(f"driver error: {type(e).__name__}: {e}")
    return GraphMemError(str(e))


def settings_of(settings: Settings | None, uri: str | None = None, user: str | None = None,
                password: str | None = None, database: str | None = None) -> Settings:
    """The client's settings: ``settings`` (else the environment's), with the connection keywords a
    client was given on top (``GraphMem(uri=..., password=...)``)."""
    given: dict[str, object] = {k: v for k, v in (("uri", uri), ("user", user), ("password", password),
                                                  ("database", database)) if v is not None}
    for k, v in given.items():
        if not isinstance(v, str) or not v:
            raise ValidationError(f"{k} must be a non-empty string")
    if settings is None:
        return Settings.from_env(None, **given)
    if not given:
        return settings
    if "uri" in given:
        given["uri_origin"] = "argument"
    return Settings.model_validate({**settings.model_dump(), **given})


# What the runners catch; an OSError among them is translated only if from_driver() says so.
DRIVER_ERRORS = (neo4j_errors.Neo4jError, neo4j_errors.DriverError, OSError)

# Reads run as auto-commit transactions in a READ session (the clients' ``_read``): one network
# round trip, RUN and PULL sent together, where a managed transaction (``execute_query``) takes a
# second one for its COMMIT — a fifth of as_of's wall time on a local server (docs/scaling.md,
# bench/read_transport.py). A managed transaction retries what the driver
# calls retryable (a leader change, a server restarting); a read changes nothing, so the clients
# retry it the same way, for as long as the driver's managed transactions would by default.
READ_RETRY_SECONDS = 30.0


def read_retry_delays(seconds: float = READ_RETRY_SECONDS) -> Iterator[float]:
    """The pauses between attempts at a read: doubling from 50 ms to 1 s, for ``seconds``
    (READ_RETRY_SECONDS; a client that has not reached its server yet: its connect timeout)."""
    deadline, delay = time.monotonic() + seconds, 0.05
    while time.monotonic() + delay < deadline:
        yield delay
        delay = min(delay * 2, 1.0)


def retryable(e: BaseException) -> bool:
    """Whether the driver says a failure may pass if the work is tried again."""
    return isinstance(e, (neo4j_errors.Neo4jError, neo4j_errors.DriverError)) and e.is_retryable()


@bind_tenant
class StoreApi:
    """What ``GraphMem`` and ``AsyncGraphMem`` share: settings, tenant, actor, clock, extractor,
    embedder; their public operations come from :mod:`graphmem.store.faces`, the objects they hand
    out (``working``, ``playbooks``) from :mod:`graphmem.store.objects`."""

    settings: Settings
    tenant: str

    def __init__(self, settings: Settings | None, tenant: str, clock: Clock, extractor: Any,
                 embedder: Any = None, actor: str | None = None) -> None:
        check_tenant(tenant)
        self.settings = settings or Settings.from_env()
        self.tenant = tenant
        # Who this client writes as: every event it applies names an actor (docs/design.md §5).
        self.actor = actor or env_config().actor or DEFAULT_ACTOR
        check_ids(actor=self.actor)
        self._clock = clock
        self._extractor = extractor
        self._embedder = embedder
        self._reached = False  # has the server answered this client yet? (until then, retry only briefly)

    def _retry_seconds(self) -> float:
        """How long a failing read is retried: the connect timeout until the server first answered
        (a wrong URI fails in seconds), then READ_RETRY_SECONDS (a leader change, a restart)."""
        return READ_RETRY_SECONDS if self._reached else min(self.settings.connect_timeout, READ_RETRY_SECONDS)

    @property
    def embedder(self) -> Any:
        """The embedder of the vector leg: the one given, else GRAPHMEM_EMBEDDER's, else None (off)."""
        if self._embedder is None:
            from ..recall.embed import embedder_from_env
            self._embedder = embedder_from_env() or False
        return self._embedder or None

    def _connect(self, factory: Callable[..., Any]) -> Any:
        """A driver from the settings (sync or async factory); a bad URI is a ValidationError."""
        try:
            return factory(self.settings.uri, auth=self.settings.auth, notifications_min_severity="OFF",
                           connection_timeout=self.settings.connect_timeout)
        except (ValueError, neo4j_errors.ConfigurationError) as e:
            raise ValidationError(f"bad NEO4J_URI {self.settings.uri!r}: {e}") from e

    def _run(self, plan: ops.Plan[Any]) -> Any:  # pragma: no cover - defined by the clients
        raise NotImplementedError

    def _extract(self, message: MessageEvent, context: list[Any]) -> list[Any]:
        if self._extractor is None:
            from ..extract import default_extractor
            self._extractor = default_extractor()
        from ..extract import PriorFact
        context = [PriorFact(**fact) for fact in context]  # the write path gives them as plain dicts
        start = time.perf_counter()
        # An extractor that can also read episodes (the rule extractor's ``draw``) gives both.
        draw = getattr(self._extractor, "draw", None)
        drawn = list(draw(message, context) if callable(draw) else self._extractor.extract(message, context))
        if message.drawn_as != "stated":  # a non-person's words keep only what extract/roles.py allows
            from ..extract.roles import keep_drawn
            from .projection.values import plain
            drawn = keep_drawn([plain(d) for d in drawn], message.speaker, message.drawn_as)
        observe.extraction_yield(self.tenant, message.id, 1, len(drawn), (time.perf_counter() - start) * 1000)
        return drawn

    def _prepare(self, texts: list[str], ahead: bool = False) -> None:
        """Let the extractor parse a batch of message texts in one pass, if it can; ``ahead``: the
        next batch's, to start on while this batch's rules run (the extractor's ``prepare_ahead``)."""
        if not texts and self._extractor is None:
            return  # nothing to parse, and nothing started ahead to cancel
        if self._extractor is None:
            from ..extract import default_extractor
            self._extractor = default_extractor()
        prepare = getattr(self._extractor, "prepare_ahead" if ahead else "prepare", None)
        if callable(prepare):
            prepare(texts)
