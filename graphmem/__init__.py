"""graphmem: a temporal memory store for AI agents, kept as a knowledge graph in Neo4j.

The public names are imported when first used (PEP 562), so ``import graphmem.cli`` or
``graphmem.errors`` does not load the driver, pydantic models or the NLP stack: a CLI call pays
only for what its command uses.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import (
    AccessError,
    ConfigurationError,
    ConnectionError_,
    ExtractionError,
    GraphMemError,
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
    from .aio import AsyncGraphMem
    from .client import GraphMem
    from .memory_context import ContextItem, Gap, MemoryContext
    from .models import Answer, HistoryEntry, Why, WriteResult, parse_event
    from .settings import Settings
    from .stats import Stats
    from .working import WorkingItem, WorkingMemory, WorkingPolicy

_LAZY = {
    "AsyncGraphMem": "aio", "GraphMem": "client", "ContextItem": "memory_context", "Gap": "memory_context",
    "MemoryContext": "memory_context", "Answer": "models", "HistoryEntry": "models", "Why": "models",
    "WriteResult": "models", "parse_event": "models", "Settings": "settings", "Stats": "stats",
    "WorkingItem": "working", "WorkingMemory": "working", "WorkingPolicy": "working",
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
    "ConnectionError_",
    "ContextItem",
    "ExtractionError",
    "Gap",
    "GraphMem",
    "GraphMemError",
    "HistoryEntry",
    "MemoryContext",
    "NotFoundError",
    "QueryError",
    "SensitiveDataError",
    "ServerError",
    "SessionClosedError",
    "Settings",
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
