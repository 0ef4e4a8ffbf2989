"""Recall's query plans, warmed before the first question (issue #47, item 2).

Neo4j plans a query the first time it sees it and caches the plan on the server, keyed by the
query's text and its parameters' *types* (a null and a string are different keys; lists by a bucket
of their size). ``context()`` sends up to nine named queries one after another, and on a server
that has not planned them the first question of each shape paid every plan in a row: 0.5–0.9 s on
an idle host, seconds on a busy one (docs/scaling.md, "context() on a long history").

:func:`warm_plans` sends each of recall's queries once, with the parameters a real call sends —
built by the very functions the legs use, so their types cannot drift from the real calls — in each
shape a question gives them: with and without a subject, with and without a named time range, the
lists in the sizes recall sends them, the Lucene queries padded as every call pads them
(graphmem.recall.terms.plan_shaped: a string's plan is keyed by a bucket of its length). The
parameters name nothing (a word no text holds, a subject
no tenant has), so each query is a few index seeks that find nothing: on a server that has the
plans, the whole warm-up is a few milliseconds of round trips. Nothing is written.

:class:`graphmem.store.client.GraphMem` starts it behind its constructor, once per driver (nothing
waits for it: a question asked before it ends plans what it needs itself); ``mem.warm_plans()``
runs it on demand — ``await amem.warm_plans()`` for the async client, which does not start it
itself — for instance after a server restart.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ..store.ops import Plan, Start, as_of_many
from .episodic import ask_messages, history_items, resolve_people
from .fact_legs import fact_candidates, quoted_items
from .gaps import expiries
from .memory_context import ContextItem
from .recall_config import recall_config
from .terms import analyse
from .vectors import vector_leg

__all__ = ["WARM_WORD", "warm_plans"]

WARM_WORD = "graphmemplanwarmup"  # in no text: every full-text leg finds nothing
# no subject is called this; under ten characters, as most names are (a string parameter's plan is
# keyed by a bucket of its length: graphmem.recall.terms.plan_shaped)
_NOBODY = "gm-nobody"
# as_of_many and recall/quoted take lists of slots whose size varies with the answer: Neo4j keys a
# plan by a bucket of a list's size, so the sizes a context sends most (one slot, a handful, a page)
_SLOT_SIZES = (1, 8, 40)


def _messages(tenant: str, now: datetime, subject: str | None, when: tuple[datetime, datetime] | None,
              vector: list[float] | None, speakers: list[str]) -> Plan[int]:
    """``recall/messages`` as ``ask_messages`` sends it, run here rather than behind the plan."""
    cfg = recall_config(None)
    started = ask_messages(tenant, [WARM_WORD], known_at=now, subject=subject, session=None, speakers=speakers,
                           when=when, vector=vector, config=cfg)
    step = next(started)  # the Start it yields: its call, with the real call's parameters
    assert isinstance(step, Start)
    yield step.step
    return 1


def warm_plans(tenant: str, now: datetime, vector: list[float] | None) -> Plan[int]:
    """Send every query a ``context()`` may send, in each parameter shape, for nothing; return how
    many were sent. ``vector``: a vector of the embedder's dimensions (None: no embedder, and the
    vector legs are never asked)."""
    cfg = recall_config(None)
    sent = 0
    yield from resolve_people(tenant, f"What does {WARM_WORD.capitalize()} do?")
    yield from _begin(tenant)
    sent += 2
    month = (now - timedelta(days=30), now)
    for subject in (None, _NOBODY):
        for when in (None, month):
            sent += yield from _messages(tenant, now, subject, when, vector, [_NOBODY] if subject is None else [])
        yield from fact_candidates(tenant, analyse(f"{WARM_WORD} of {_NOBODY}"), subject, [""], now, now, [], cfg)
        yield from history_items(tenant, now, analyse(WARM_WORD).lucene(tenant), subject, now, now, set(),
                                 cfg.limit // 2)
        sent += 2
    if vector is not None:
        state = {"held": True, "fact_vectors": 1, "fact_index": 1, "source_vectors": 1, "source_index": 1}
        yield from vector_leg(tenant, vector, cfg.limit, state, cfg.fact_vector_min_score)
        sent += 1
    yield from expiries(tenant, [_NOBODY])
    sent += 1
    for size in _SLOT_SIZES:
        items = [ContextItem(kind="fact", subject=_NOBODY, topic=f"t{i}") for i in range(size)]
        yield from quoted_items(tenant, items, now, now, cfg)
        yield from as_of_many(tenant, now, [(_NOBODY, f"t{i}", None) for i in range(size)], valid_at=now,
                              known_at=now)
        sent += 2
    return sent


def _begin(tenant: str) -> Plan[None]:
    from ..store.ops import run_query
    yield from run_query("recall/begin", tenant)
