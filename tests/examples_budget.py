"""How many examples the database-backed property tests draw.

Each example of those tests writes to and reads from a real Neo4j, so the example count is most
of ``make test``'s time. ``make test`` (and CI) draws half of each test's full count;
``make test-thorough`` (``GRAPHMEM_THOROUGH=1``) draws the full count, as before a release or
after a change to the rules, isolation or the write path. The same switch gives the
eight-writer concurrency test (tests/integration/test_concurrency.py) its full 8,000 events.
"""

from __future__ import annotations

from graphmem.core.config import env_config


def examples(full: int) -> int:
    """The example count for a property test whose full count is ``full``."""
    return full if env_config().thorough else max(10, full // 2)
