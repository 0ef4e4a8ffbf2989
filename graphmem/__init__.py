"""graphmem: a temporal memory store for AI agents, kept as a knowledge graph in Neo4j."""

from .aio import AsyncGraphMem
from .client import GraphMem
from .errors import (
    AccessError,
    ConfigurationError,
    ConnectionError_,
    ExtractionError,
    GraphMemError,
    NotFoundError,
    QueryError,
    ServerError,
    StaleError,
    TemporalError,
    TenantError,
    ValidationError,
)
from .memory_context import ContextItem, MemoryContext
from .models import Answer, HistoryEntry, Why, WriteResult, parse_event
from .settings import Settings

__version__ = "0.1.0"

__all__ = [
    "AccessError",
    "Answer",
    "AsyncGraphMem",
    "ConfigurationError",
    "ConnectionError_",
    "ContextItem",
    "ExtractionError",
    "GraphMem",
    "GraphMemError",
    "HistoryEntry",
    "MemoryContext",
    "NotFoundError",
    "QueryError",
    "ServerError",
    "Settings",
    "StaleError",
    "TemporalError",
    "TenantError",
    "ValidationError",
    "Why",
    "WriteResult",
    "__version__",
    "parse_event",
]
