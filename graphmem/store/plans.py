"""The vocabulary of a plan: what an operation of the store yields, with no I/O.

An operation is a *plan*: a generator that yields what it needs done and receives the result.

* :class:`~graphmem.store.queries.Call` — run one named query (an auto-commit read) and send back its
  rows;
* :class:`Tx` — run a unit of work (itself a generator of ``Call``) in one write transaction,
  retried as a whole on transient errors, and send back what it returns;
* :class:`Statement` — run one schema statement;
* :class:`Start` — begin a ``Tx`` or a ``Call`` behind the plan (on another connection) and send
  back a handle at once; :class:`Wait` — wait for it and send back what it returned (or throw its
  error). A bulk load's next batch runs its rules while the batch before it commits
  (:mod:`graphmem.store.pipeline`); context() reads what was said while it reads the facts
  (:mod:`graphmem.recall.recall`).

:class:`graphmem.store.client.GraphMem` runs plans with the sync driver and
:class:`graphmem.store.aio.AsyncGraphMem` with the async driver (both through
:class:`graphmem.store.runner.PlanRun`); neither holds any logic of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Generator, LiteralString, TypeVar, Union

from .projection.values import instant
from .queries import Call, Steps

T = TypeVar("T")

__all__ = ["Plan", "Start", "Statement", "Tx", "Wait", "query_call", "run_query"]


@dataclass(frozen=True)
class Tx:
    """Run ``work()`` in one write transaction. ``work`` makes a fresh generator per attempt."""

    work: Callable[[], Steps[Any]]
    name: str


@dataclass(frozen=True)
class Statement:
    """One schema statement (``cypher/schema.cypher``), run as is."""

    text: LiteralString


@dataclass(frozen=True)
class Start:
    """Begin ``step`` (a transaction or a read) behind the plan; the runner sends back an opaque
    handle for :class:`Wait`. A plan waits for everything it starts before it returns."""

    step: Tx | Call


@dataclass(frozen=True)
class Wait:
    """Wait for what :class:`Start` began; the runner sends back what it returned."""

    handle: Any


Plan = Generator[Union[Call, Tx, Statement, Start, Wait], Any, T]


def query_call(query: str, tenant: str, /, **params: Any) -> Call:
    """One named query for ``tenant``, ready to yield (or to :class:`Start` behind the plan).
    Times travel as :func:`instant` maps (every query calls ``datetime()`` on its time parameters)."""
    sent: dict[str, Any] = {"tenant": tenant}
    for k, v in params.items():
        sent[k] = instant(v) if isinstance(v, datetime) else v
    return Call(query, sent)


def run_query(query: str, tenant: str, /, **params: Any) -> Steps[list[dict[str, Any]]]:
    """Run one named query for ``tenant`` and return its rows: a step of a plan or of a unit of work."""
    rows: list[dict[str, Any]] = yield query_call(query, tenant, **params)
    return rows
