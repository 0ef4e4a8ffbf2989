"""One exception tree for everything graphmem raises.

    GraphMemError
    ├── ConfigurationError        bad settings, missing java/mvn, unusable install
    │   └── MissingExtraError     an optional part is not installed (also ImportError; graphmem.core.extras)
    ├── ServerError               the local Neo4j could not be built, started or stopped
    ├── Neo4jConnectionError      no Neo4j answers at the URI tried, or it refused the credentials
    │                             (also builtins.ConnectionError; its old name still works)
    ├── QueryError                Neo4j refused or failed a named query (carries .query)
    ├── NotFoundError             an unknown ref, source, fact, session, card… (.kind, .id; also LookupError)
    ├── ValidationError           malformed input; nothing was written (also ValueError)
    │   ├── TemporalError         intervals backwards, record time going backwards
    │   ├── SensitiveDataError    a secret (key, token, card number) in a write, in refuse mode
    │   └── SessionClosedError    a working session that was closed asked to go on (graphmem.working.working)
    ├── ExtractionError           the model extractor got no usable answer (graphmem.extract.model)
    ├── StaleError                a derived copy (summary) is behind its facts and may not answer
    └── AccessError               the caller may not do this (also PermissionError); nothing was written
        └── TenantError           another tenant than the one the client is bound to

Driver errors are translated in one place (:func:`graphmem.store.api.translate`, used by
:class:`graphmem.store.client.GraphMem` and :class:`graphmem.store.aio.AsyncGraphMem`) and always chained with
``raise ... from e`` so the original stays visible. Only the driver's own failures are translated
(:func:`graphmem.store.api.from_driver`): an ``OSError`` raised by graphmem's or your code (an extractor
reading a file) reaches you as itself, never as "no Neo4j answers".
"""

from __future__ import annotations

__all__ = [
    "AccessError",
    "ConfigurationError",
    "ExtractionError",
    "GraphMemError",
    "MissingExtraError",
    "Neo4jConnectionError",
    "NotFoundError",
    "QueryError",
    "SensitiveDataError",
    "ServerError",
    "SessionClosedError",
    "StaleError",
    "TemporalError",
    "TenantError",
    "ValidationError",
]


class GraphMemError(Exception):
    """Root of every error graphmem raises on purpose."""


class ConfigurationError(GraphMemError):
    """Settings or the installation are unusable; the message says how to fix it."""


class MissingExtraError(ConfigurationError, ImportError):
    """An optional part of graphmem is not installed; the message names the extra to install
    (``pip install 'graphmem[cli]'``). ``extra`` and ``module`` say which (graphmem.core.extras)."""

    def __init__(self, message: str, *, extra: str, module: str) -> None:
        super().__init__(message)
        self.extra, self.module = extra, module
        self.name = module  # ImportError's attribute: the module that is missing


class ServerError(GraphMemError):
    """The local Neo4j server could not be built, started or stopped."""


class Neo4jConnectionError(GraphMemError, ConnectionError):
    """No Neo4j answered at the URI tried (or it refused the credentials); the message names the
    URI and says what to check — the URI given, ``NEO4J_URI``, or the local server."""


ConnectionError_ = Neo4jConnectionError  # the old name, kept so that code catching it still does


class QueryError(GraphMemError):
    """Neo4j refused or failed a named query."""

    def __init__(self, message: str, *, query: str | None = None) -> None:
        super().__init__(f"{message} (query: {query})" if query else message)
        self.query = query


class NotFoundError(GraphMemError, LookupError):
    """Something named does not exist in this tenant: a ref, a source, a fact, an erase request, a
    working session or item, a playbook card, a workflow (version). ``kind`` says which, ``id`` is
    the name that was not found.

    Example: ``NotFoundError("unknown fact 'f-9'", kind="fact", id="f-9")``.
    """

    def __init__(self, message: str, *, kind: str = "", id: str = "") -> None:
        super().__init__(message)
        self.kind, self.id = kind, id


class ValidationError(GraphMemError, ValueError):
    """Malformed input. It is raised before anything is written."""


class TemporalError(ValidationError):
    """An interval ends before it starts, or a record time goes backwards."""


class SensitiveDataError(ValidationError):
    """A write contains a string matching a configured secret pattern (graphmem.governance.sensitive) and the
    store runs in ``refuse`` mode. Nothing was written."""


class SessionClosedError(ValidationError):
    """A working session closed by its end gate was asked for another step (an add, a checkpoint,
    a context read through it). Raised before anything is read or written."""


class ExtractionError(GraphMemError):
    """An extractor could not turn text into events: the model extractor got no usable answer from
    its endpoint (graphmem.extract.model)."""


class StaleError(GraphMemError):
    """A derived copy (a summary, an embedding) is older than the facts it was built from, and the
    caller asked not to rebuild it: it may not answer."""


class AccessError(GraphMemError, PermissionError):
    """The caller may not do this: confirm for someone else, erase without a person's say-so, or
    reach outside the tenant it is bound to. Raised before anything is written."""


class TenantError(AccessError):
    """A client bound to one tenant was asked to read or write another (a ``tenant=`` keyword, an
    event's ``tenant`` field, a query parameter)."""
