"""The public reads a user browses memory with (:mod:`graphmem.recall.search`,
:mod:`graphmem.recall.listing`): ``search`` (ranked, typed memories for a query: the legs of
``context()`` without its rendering), ``facts`` (every current fact of a subject) and
``candidates`` (what waits for a confirm or a reject); see :mod:`graphmem.store.surface` and
docs/search.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ops import Plan
from .common import When

if TYPE_CHECKING:
    from ..api import StoreApi
    from ...recall.recall_config import RecallConfig
    from ...recall.search import Memory, SearchResult

__all__ = ["search", "facts", "candidates"]


def search(mem: StoreApi, query: str, *, subject: str | None = None, valid_at: When | None = None,
           known_at: When | None = None, limit: int = 10, env: str | None = None, session: str | None = None,
           include_candidates: bool = False, episodes: bool = True,
           config: RecallConfig | str | None = None) -> Plan[SearchResult]:
    """The memories that match ``query`` — facts, conflicts, quoted old claims, facts that no longer
    hold (for a question about the past), messages, episodes, and candidates when asked — ranked
    best first with their scores, validity, source and warnings: the legs of ``context()`` without
    its rendering or budget (docs/search.md). At most ``limit`` (1–500).

    >>> [(m.kind, m.topic, m.value) for m in mem.search("where does lin live?", subject="lin").memories]
    """
    from ...recall.search import search as plan
    return plan(mem.tenant, mem._clock(), query, subject=subject, env=env, session=session, valid_at=valid_at,
                known_at=known_at, limit=limit, include_candidates=include_candidates, episodes=episodes,
                embedder=mem.embedder, config=config)


def facts(mem: StoreApi, subject: str, *, include_candidates: bool = False, valid_at: When | None = None,
          known_at: When | None = None) -> Plan[list[Memory]]:
    """Every fact that holds for ``subject`` (each topic and environment, as ``as_of`` answers it),
    at ``valid_at`` as known at ``known_at`` (both default now); with ``include_candidates``, the
    subject's waiting candidates follow, marked ``kind="candidate"``.

    >>> [(m.topic, m.value) for m in mem.facts("lin")]
    """
    from ...recall.listing import facts as plan
    return plan(mem.tenant, mem._clock(), subject, include_candidates=include_candidates, valid_at=valid_at,
                known_at=known_at)


def candidates(mem: StoreApi, *, subject: str | None = None, known_at: When | None = None,
               limit: int = 1000) -> Plan[list[Memory]]:
    """The candidate facts waiting for a confirm or a reject (of ``subject``, or of everyone), oldest
    first: what an agent suggested or a model drew, which never answers until a person confirms it.

    >>> [(m.id, m.subject, m.topic, m.value) for m in mem.candidates()]
    """
    from ...recall.listing import candidates as plan
    return plan(mem.tenant, mem._clock(), subject=subject, known_at=known_at, limit=limit)
