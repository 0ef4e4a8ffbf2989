"""The public recall operations (:mod:`graphmem.recall.recall`, :mod:`graphmem.recall.summaries`,
:mod:`graphmem.recall.userpage`): an agent's context, summaries, the user page, embeddings; see
:mod:`graphmem.store.surface`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import observe
from ...core.errors import ConfigurationError
from ..ops import Plan
from .common import When

if TYPE_CHECKING:
    from ..api import StoreApi
    from ...recall.memory_context import MemoryContext, SummaryView
    from ...recall.recall_config import RecallConfig

__all__ = ["context", "warm_plans", "summary", "user_page", "apply_user_page", "embed_pending"]


def context(mem: StoreApi, task: str, *, subject: str | None = None, env: str | None = None,
            session: str | None = None, valid_at: When | None = None, known_at: When | None = None,
            budget_tokens: int = 1500, include_candidates: bool = False, hops: int | None = None,
            limit: int | None = None, area: str | None = None, summary: bool = True, playbooks: bool = True,
            stale_after_days: int | None = None, expiring_within_days: int | None = None,
            config: RecallConfig | str | None = None, gaps: bool = True) -> Plan[MemoryContext]:
    """What an agent should know for ``task``: a :class:`~graphmem.recall.memory_context.MemoryContext`
    (facts with validity, source, version, authority and warnings; the messages that match;
    history for questions about the past; rules and cards; a summary) fitted to
    ``budget_tokens``. ``config`` is a RecallConfig or a preset name; ``hops``, ``limit``,
    ``stale_after_days`` and ``expiring_within_days`` override it (graphmem.recall.recall.context).

    >>> mem.context("which port does deploy use?", subject="deploy", budget_tokens=800).render()
    """
    from ...recall.recall import context as plan
    return observe.observed_plan("context", mem.tenant, plan(
        mem.tenant, mem._clock(), task, subject=subject, env=env, session=session, valid_at=valid_at,
        known_at=known_at, budget_tokens=budget_tokens, include_candidates=include_candidates, hops=hops,
        limit=limit, area=area, embedder=mem.embedder, summary=summary, playbooks=playbooks,
        stale_after_days=stale_after_days, expiring_within_days=expiring_within_days, config=config, gaps=gaps),
        observe.context_summary)


def warm_plans(mem: StoreApi) -> Plan[int]:
    """Have the server plan every query ``context()`` may send, in each parameter shape, for a
    task that finds nothing, so the first real question pays no planning; returns how many queries
    were sent. ``GraphMem`` runs it behind its constructor; run it after a server restart
    (graphmem.recall.warm).

    >>> mem.warm_plans()
    """
    from ...recall.warm import WARM_WORD, warm_plans as plan
    embedder = mem.embedder
    vector = embedder.embed([WARM_WORD])[0] if embedder is not None else None
    return plan(mem.tenant, mem._clock(), vector)


def summary(mem: StoreApi, subject: str, topic: str | None = None, *, rebuild: bool = True) -> Plan[SummaryView]:
    """The subject's (or one topic's) deterministic summary; a stale one is rebuilt first, or
    with ``rebuild=False`` refused with :class:`~graphmem.core.errors.StaleError`.

    >>> mem.summary("deploy").text
    """
    from ...recall.summaries import summary as plan
    return plan(mem.tenant, mem._clock(), subject, topic, rebuild=rebuild)


def user_page(mem: StoreApi, subject: str) -> Plan[str]:
    """The subject's confirmed, explicitly stated facts as a ``user.md`` page (a projection).

    >>> print(mem.user_page("caroline"))
    """
    from ...recall.userpage import show
    return show(mem.tenant, mem._clock(), subject)


def apply_user_page(mem: StoreApi, subject: str, text: str, *,
                    actor: str | None = None) -> Plan[list[dict[str, Any]]]:
    """Turn the edits of a user page into ledger events (applied atomically); returns them.

    >>> mem.apply_user_page("caroline", edited_text)
    """
    from ...recall.userpage import apply_page
    return apply_page(mem.tenant, mem._clock(), mem._clock, mem._extract, subject, text, actor or mem.actor)


def embed_pending(mem: StoreApi, *, limit: int = 10_000) -> Plan[int]:
    """Bring the fact and source embeddings up to the ledger (the vector legs), ``limit`` a
    transaction; returns how many were embedded. Large transactions leave fewer segments in the
    vector indexes, and each search visits them all (graphmem.recall.vectors.EMBED_PAGE).

    >>> GraphMem(tenant="acme", embedder=HashingEmbedder()).embed_pending()
    """
    from ...recall.vectors import embed_pending as pending
    from ...recall.vectors import ensure_vector_index
    embedder = mem.embedder
    if embedder is None:
        raise ConfigurationError("no embedder: pass embedder= or set GRAPHMEM_EMBEDDER=hashing")

    def plan() -> Plan[int]:
        yield from ensure_vector_index(mem.tenant, embedder.dimensions)
        return (yield from pending(mem.tenant, embedder, limit=limit, rounds=10_000))
    return plan()
