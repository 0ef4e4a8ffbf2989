"""The vocabulary of a plan: what an operation of the store yields, with no I/O.

An operation is a *plan*: a generator that yields what it needs done and receives the result.

* :class:`~graphmem.store.queries.Call` — run one named query (an auto-commit read) and send back its
  rows;
* :class:`Tx` — run a unit of work (itself a generator of ``Call``) in one write transaction,
  retried as a whole on transient errors, and send back what it returns;
* :class:`Statement` — run one schema statement;
* :class:`Start` — begin a ``Tx`` behind the plan (on another connection) and send back a handle
  at once; :class:`Wait` — wait for a started ``Tx`` and send back what it returned (or throw its
  error). A bulk load's next batch runs its rules while the batch before it commits
  (:mod:`graphmem.store.pipeline`).

:class:`graphmem.store.client.GraphMem` runs plans with the sync driver and
:class:`graphmem.store.aio.AsyncGraphMem` with the async driver (both through
:class:`graphmem.store.runner.PlanRun`); neither holds any logic of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Generator, LiteralString, TypeVar, Union

from .queries import Call, Steps

T = TypeVar("T")

__all__ = ["Plan", "Start", "Statement", "Tx", "Wait", "run_query"]


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
    """Begin ``tx`` behind the plan; the runner sends back an opaque handle for :class:`Wait`.
    A plan waits for every transaction it starts before it returns."""

    tx: Tx


@dataclass(frozen=True)
class Wait:
    """Wait for a transaction :class:`Start` began; the runner sends back what it returned."""

    handle: Any


Plan = Generator[Union[Call, Tx, Statement, Start, Wait], Any, T]


def run_query(query: str, tenant: str, /, **params: Any) -> Steps[list[dict[str, Any]]]:
    """Run one named query for ``tenant`` and return its rows: a step of a plan or of a unit of work."""
    # Times travel as ISO text (the read queries call datetime() on them): far cheaper to pack.
    params = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in params.items()}
    rows: list[dict[str, Any]] = yield Call(query, {"tenant": tenant, **params})
    return rows
