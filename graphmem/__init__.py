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
    SensitiveDataError,
    ServerError,
    SessionClosedError,
    StaleError,
    TemporalError,
    TenantError,
    ValidationError,
)
from .memory_context import ContextItem, Gap, MemoryContext
from .models import Answer, HistoryEntry, Why, WriteResult, parse_event
from .settings import Settings
from .stats import Stats
from .working import WorkingItem, WorkingMemory, WorkingPolicy

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
