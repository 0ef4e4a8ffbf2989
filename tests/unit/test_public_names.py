"""graphmem's public names are pinned: adding or removing one is a deliberate change to this list."""

import graphmem

PUBLIC = ['AccessError', 'Answer', 'AsyncGraphMem', 'ConfigurationError', 'ContextItem', 'Episode', 'ExtractionError', 'Gap', 'GraphMem', 'GraphMemError', 'HistoryEntry', 'ItemWarning', 'Memory', 'MemoryContext', 'Neo4jConnectionError', 'NotFoundError', 'QueryError', 'RecallConfig', 'SearchResult', 'SensitiveDataError', 'ServerError', 'SessionClosedError', 'Settings', 'SourceRef', 'StaleError', 'Stats', 'TemporalError', 'TenantError', 'ValidationError', 'Why', 'WorkingItem', 'WorkingMemory', 'WorkingPolicy', 'WriteResult', '__version__', 'parse_event']


def test_all_is_pinned():
    assert sorted(graphmem.__all__) == PUBLIC


def test_every_public_name_imports():
    for name in graphmem.__all__:
        assert getattr(graphmem, name) is not None, name
