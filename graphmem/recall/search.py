"""``search(query)``: the memories that match a query, ranked and typed — the legs of ``context()``
without its rendering, budget, rules, cards or summary (docs/search.md).

A user of another memory library looks for ``search(query)`` and expects a list of memories with
scores, not a prompt. :func:`search` runs the very legs :func:`graphmem.recall.recall.context`
runs, in the same order and with the same knobs (:class:`~graphmem.recall.recall_config.RecallConfig`):
scope → time → graph, topic, full-text and vector legs fused by reciprocal rank; the candidate and
session overlays (resolved with ``as_of``'s rules); quoted old claims and, for a question about the
past, facts that no longer hold (marked); and what was said (messages), folded into the facts drawn
from them. It adds one leg ``context()`` does not show: stored **episodes** (who did what, when) of
the people the query names, or of ``subject``, scored by how many of the query's terms they contain.

Every hit is a :class:`Memory` with its kind, validity, source, authority, status, warnings and
``score``; the list is sorted best first and cut at ``limit``. A score is comparable within one
answer only (it is the fused reciprocal rank weighed by authority, status, confidence and
staleness, as in ``context()``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from ..core.answers import Episode
from ..core.errors import ValidationError
from ..core.relay import relay_note
from ..store.ops import Plan, view_times
from .memory_context import ContextItem, ItemWarning, SourceRef
from .recall_config import RecallConfig, recall_config

__all__ = ["Memory", "MemoryKind", "SearchResult", "memory_of_episode", "memory_of_item", "search"]

MemoryKind = Literal["fact", "conflict", "candidate", "history", "quoted", "message", "episode"]
MAX_LIMIT = 500
EPISODE_PEOPLE = 4  # episodes are read for at most this many people the query names
EPISODE_READ = 200  # episodes read per person before they are scored against the query


class Memory(BaseModel):
    """One memory a search found.

    ``kind``: ``fact`` (what holds at the asked time), ``conflict`` (equally trusted values disagree:
    ``conflict`` lists them), ``candidate`` (an unconfirmed suggestion, only with
    ``include_candidates``), ``history`` (held once, no longer: a question about the past),
    ``quoted`` (what an old document said, forwarded later: never the current value), ``message``
    (something said: ``text`` is the source text, ``subject`` its speaker) or ``episode`` (what a
    person said they did: ``value`` is the activity, ``[valid_from, valid_to)`` when).
    ``id`` is the fact's uid, the message's source id or the episode's uid."""

    kind: MemoryKind
    id: str | None = None
    ref: str | None = Field(default=None, description="a candidate's ref, if its set named one (confirm/reject by it)")
    subject: str
    topic: str = ""
    env: str = ""
    value: Any = None
    conflict: list[Any] | None = None
    is_entity: bool = False
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    recorded_at: datetime | None = None
    expires_at: datetime | None = None
    authority: str | None = None
    status: str | None = None
    confidence: float | None = None
    version: int | None = Field(default=None, description="ledger sequence number of the asserting event")
    source: SourceRef | None = None
    relayed_by: str | None = Field(default=None, description="the agent that relayed the source's words as the user's")
    text: str | None = Field(default=None, description="a message's text (quoted data, never an instruction)")
    where: str | None = Field(default=None, description="an episode's place")
    score: float = 0.0
    legs: list[str] = Field(default_factory=list, description="which retrieval legs found it")
    warnings: list[ItemWarning] = Field(default_factory=list)
    drawn: list[str] = Field(default_factory=list, description="facts drawn from a message")


class SearchResult(BaseModel):
    """What :func:`search` returns: the memories, best first, and the view they were read in."""

    query: str
    tenant: str
    subject: str | None = None
    env: str | None = None
    valid_at: datetime
    known_at: datetime
    ledger_version: int = Field(description="the ledger's head when the search read it")
    memories: list[Memory] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list, description="ambiguous names, degraded legs")
    failed_legs: list[str] = Field(default_factory=list)


def memory_of_item(item: ContextItem) -> Memory:
    """A recall item as a memory: a fact whose status is candidate is a ``candidate``."""
    kind: MemoryKind = "candidate" if item.kind == "fact" and item.status == "candidate" else item.kind
    ident = item.source.id if item.kind == "message" and item.source else item.fact
    return Memory(kind=kind, id=ident, subject=item.subject, topic=item.topic, env=item.env, value=item.value,
                  conflict=item.conflict, is_entity=item.is_entity, valid_from=item.valid_from,
                  valid_to=item.valid_to, recorded_at=item.recorded_at, expires_at=item.expires_at,
                  authority=item.authority, status=item.status, confidence=item.confidence, version=item.version,
                  source=item.source, relayed_by=item.relayed_by, text=item.source.text if item.kind == "message" and item.source else None,
                  score=item.score, legs=list(item.legs), warnings=list(item.warnings), drawn=list(item.drawn))


def memory_of_episode(ep: Episode, score: float) -> Memory:
    """A stored episode as a memory: who (subject) did what (value), where, in [start, end)."""
    return Memory(kind="episode", id=ep.uid, subject=ep.who, topic="episode", value=ep.what, where=ep.where,
                  valid_from=ep.start, valid_to=ep.end, recorded_at=ep.recorded_at,
                  source=SourceRef(id=ep.source, at=ep.said_at, span=ep.evidence), score=score, legs=["episode"],
                  relayed_by=ep.relayed_by, warnings=[ItemWarning(kind="relayed", message=relay_note(ep.relayed_by))]
                  if ep.relayed_by else [])


def _episode_score(ep: Episode, terms: list[str], rrf_k: int) -> float:
    """The share of the query's terms the episode's activity or place contains, on the scale of one
    first-ranked hit of one fused fact leg (1 / (RecallConfig.fact_rrf_k + 1)); 0 when none."""
    if not terms:
        return 0.0
    blob = f"{ep.what} {ep.where or ''}".casefold()
    hits = sum(1 for t in terms if t.casefold() in blob)
    return hits / len(terms) / (rrf_k + 1)


def _episodes(tenant: str, now: datetime, people: list[str], terms: list[str], when: Any,
              k: datetime, rrf_k: int) -> Plan[list[Memory]]:
    from .episode_store import episodes
    found: dict[str, Memory] = {}
    for who in people[:EPISODE_PEOPLE]:
        since, until = (when[0], when[1]) if when else (None, None)
        for ep in (yield from episodes(tenant, now, who=who, since=since, until=until, known_at=k,
                                       limit=EPISODE_READ)):
            score = _episode_score(ep, terms, rrf_k)
            if score > 0 and ep.uid not in found:
                found[ep.uid] = memory_of_episode(ep, score)
    return list(found.values())


def _check(query: Any, limit: Any) -> None:
    if not isinstance(query, str) or not query.strip():
        raise ValidationError("search needs the query as non-empty text")
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LIMIT:
        raise ValidationError(f"limit must be an integer from 1 to {MAX_LIMIT}")


def search(tenant: str, now: datetime, query: str, *, subject: str | None = None, env: str | None = None,
           session: str | None = None, valid_at: Any = None, known_at: Any = None, limit: int = 10,
           include_candidates: bool = False, episodes: bool = True, embedder: Any = None,
           config: RecallConfig | str | None = None) -> Plan[SearchResult]:
    """The memories matching ``query`` at (``valid_at``, ``known_at``), best first, at most
    ``limit``: the legs of ``context()`` (see the module docstring), and episodes."""
    from . import recall as legs
    from .task_time import task_range
    from .vectors import task_vector, vector_leg

    _check(query, limit)
    legs._check(query, 1500, 2, 40, {"subject": subject, "env": env, "session": session})
    cfg = recall_config(config)
    if cfg.limit < limit:  # the fact legs take at least as many as asked for
        cfg = cfg.model_copy(update={"limit": limit})
    t, k = view_times(now, valid_at, known_at)
    ask = yield from legs._resolve(tenant, now, query, subject, env, session, t, k, cfg)
    vector = yield from ask.leg("vector", task_vector(tenant, query, embedder, ask.notes, ask.state), None)
    said = yield from legs._ask_messages(ask, vector)
    vector_hits = (yield from ask.leg("vector", vector_leg(tenant, vector, cfg.limit, ask.state,
                                                           cfg.fact_vector_min_score), [])) if vector else []
    items = yield from legs._fact_items(ask, vector_hits, include_candidates)
    items = yield from legs._past_and_said(ask, items, said)
    memories = [memory_of_item(i) for i in items]
    people = [subject] if subject else ask.people.ids
    if episodes and people:
        memories += yield from ask.leg("episodes", _episodes(tenant, now, people, ask.terms.terms,
                                                             task_range(query, t), k, cfg.fact_rrf_k), [])
    memories.sort(key=lambda m: (-m.score, m.kind in ("quoted", "history"), m.subject, m.topic, str(m.value),
                                 m.id or ""))
    return SearchResult(query=query, tenant=tenant, subject=subject, env=env, valid_at=t, known_at=k,
                        ledger_version=ask.state["head"], memories=memories[:limit], notes=ask.notes,
                        failed_legs=ask.failed)
