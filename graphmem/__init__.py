"""graphmem: a temporal memory store for AI agents, kept as a knowledge graph in Neo4j.

The public names are imported when first used (PEP 562), so ``import graphmem.interfaces.cli`` or
``graphmem.core.errors`` does not load the driver, pydantic models or the NLP stack: a CLI call pays
only for what its command uses.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .core.errors import (
    AccessError,
    ConfigurationError,
    ConnectionError_,  # the old name of Neo4jConnectionError: still importable, no longer listed
    ExtractionError,
    GraphMemError,
    Neo4jConnectionError,
    NotFoundError,
    QueryError,
    SensitiveDataError,
    ServerError,
    SessionClosedError,
    StaleError,
    TemporalError,
    TenantError,
    ValidationError,
)

if TYPE_CHECKING:
    from .store.aio import AsyncGraphMem
    from .store.client import GraphMem
    from .recall.memory_context import ContextItem, Gap, ItemWarning, MemoryContext, SourceRef
    from .recall.recall_config import RecallConfig
    from .core.models import Answer, Episode, HistoryEntry, Why, WriteResult, parse_event
    from .store.settings import Settings
    from .governance.stats import Stats
    from .working.faces import WorkingMemory
    from .working.working import WorkingItem, WorkingPolicy
    from .recall.search import Memory, SearchResult

_LAZY = {
    "AsyncGraphMem": "store.aio", "GraphMem": "store.client", "ContextItem": "recall.memory_context", "Gap": "recall.memory_context",
    "MemoryContext": "recall.memory_context", "Answer": "core.models", "HistoryEntry": "core.models", "Why": "core.models",
    "WriteResult": "core.models", "parse_event": "core.models", "Settings": "store.settings", "Stats": "governance.stats",
    "WorkingItem": "working.working", "WorkingMemory": "working.faces", "WorkingPolicy": "working.working",
    "Memory": "recall.search", "SearchResult": "recall.search", "RecallConfig": "recall.recall_config",
    "Episode": "core.models", "ItemWarning": "recall.memory_context", "SourceRef": "recall.memory_context",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"

__all__ = [
    "AccessError",
    "Answer",
    "AsyncGraphMem",
    "ConfigurationError",
    "ContextItem",
    "Episode",
    "ExtractionError",
    "Gap",
    "GraphMem",
    "GraphMemError",
    "HistoryEntry",
    "ItemWarning",
    "Memory",
    "MemoryContext",
    "Neo4jConnectionError",
    "NotFoundError",
    "QueryError",
    "RecallConfig",
    "SearchResult",
    "SensitiveDataError",
    "ServerError",
    "SessionClosedError",
    "Settings",
    "SourceRef",
    "StaleError",
    "Stats",
    "TemporalError",
    "TenantError",
    "ValidationError",
    "Why",
    "WorkingItem",
    "WorkingMemory",
    "WorkingPolicy",
    "WriteResult",
    "__version__",
    "parse_event",
]
