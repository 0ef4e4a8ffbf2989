"""Every operation of the store, written once, with no I/O: one name for the plans of each concept.

An operation is a *plan* (:mod:`graphmem.store.plans`): a generator that yields the queries and
transactions it needs and receives their results; the clients run it. The plans live by concept —
:mod:`~graphmem.store.writes` (apply one, many), :mod:`~graphmem.store.pipeline` (a bulk load), :mod:`~graphmem.store.maintenance`
(schema, rebuild, sweep, drop, the ledger's pages), :mod:`~graphmem.store.reads` (as_of, history,
why, path) and :mod:`~graphmem.store.shaping` (rows into answers) — and this module gathers them,
so ``ops.apply`` and ``from graphmem.store.ops import Plan`` keep working.
"""

from __future__ import annotations

from .maintenance import drop_tenant, ensure_schema, events_page, install_schema, rebuild, round_trip, sweep
from .plans import Plan, Start, Statement, Tx, Wait, query_call, run_query
from .reads import as_of, as_of_many, assertions, history, many_valued, path, view_times, why
from .shaping import answer_from_resolutions, answer_from_rows, empty_answer, history_entries, history_values
from .pipeline import apply_bulk
from .writes import apply, apply_many, parse_bulk, stamp

__all__ = ["Plan", "Start", "Statement", "Tx", "Wait", "answer_from_resolutions", "answer_from_rows", "apply",
           "apply_bulk", "apply_many", "as_of", "as_of_many", "assertions", "drop_tenant", "empty_answer",
           "ensure_schema", "events_page", "history", "history_entries", "history_values", "install_schema",
           "many_valued", "parse_bulk", "path", "query_call", "rebuild", "round_trip", "run_query", "stamp", "sweep",
           "view_times", "why"]
