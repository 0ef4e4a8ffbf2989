"""The write path's plans: one event, many events — each validated, stamped with its actor, checked
against the tenant, and applied by the projection's unit of work
(:class:`graphmem.store.projection.UnitOfWork`) in a transaction — and the steps the bulk path
(:mod:`graphmem.store.pipeline`) builds on: a batch applied in a unit, a transaction's work.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Iterable, Protocol

from ..core.answers import WriteResult
from ..core.errors import GraphMemError, NotFoundError, ValidationError
from ..core.scope import check_event_tenant
from .plans import Plan, Tx, run_query
from . import projection
from .projection import Expander
from .queries import Steps

__all__ = ["Prepare", "apply", "apply_events", "apply_many", "count_writes", "parse_bulk", "parse_event",
           "prepare_new", "stamp", "unit_tx"]



def parse_event(event: Any) -> Any:
    """:func:`graphmem.core.events.parse_event`, imported on first use: the events' models cost a
    read-only CLI call ~20 ms to build, and a read never parses an event."""
    from ..core.events import parse_event as parse

    return parse(event)

def apply_events(unit: projection.UnitOfWork, events: list[Any], start: int) -> Steps[list[WriteResult]]:
    """Apply a batch's events in a unit of work, in memory; a refused event raises with its index
    in the whole load (``start`` + its place in the batch)."""
    if len(events) > 1:
        yield from unit.prefetch(events)
    out = []
    for i, ev in enumerate(events):
        try:
            out.append((yield from unit.apply(ev)))
        except (ValidationError, NotFoundError) as err:
            if len(events) == 1:
                raise
            raise type(err)(f"event {start + i}: {err}") from err
    return out


def unit_tx(tenant: str, events: list[Any], now: datetime, expand: Expander | None,
            start: int) -> Steps[list[WriteResult]]:
    """The work of one write transaction: lock the ledger head, apply the events, write them."""
    unit = yield from projection.UnitOfWork.open(tenant, now, expand)
    out = yield from apply_events(unit, events, start)
    yield from unit.flush()
    return out


def stamp(ev: Any, actor: str | None) -> Any:
    """Every event names its actor (docs/design.md §5): the client's, when the event gives none."""
    return ev.model_copy(update={"actor": actor}) if actor is not None and ev.actor is None else ev


def apply(tenant: str, event: Any, now: datetime, expand: Expander | None,
          actor: str | None = None) -> Plan[WriteResult]:
    """One event, one transaction. A refused event raises and writes nothing."""
    ev = stamp(parse_event(event), actor)
    check_event_tenant(tenant, ev.tenant)
    results: list[WriteResult] = yield Tx(lambda: unit_tx(tenant, [ev], now, expand, 0), f"apply {ev.op}")
    count_writes(tenant, results)
    return results[0]


def count_writes(tenant: str, results: list[WriteResult]) -> None:
    """``graphmem.writes`` (graphmem.store.observe): the events a committed transaction appended, by op."""
    from .observe import count_writes as record
    ops: dict[str, int] = {}
    for r in results:
        if not r.duplicate:
            ops[r.op] = ops.get(r.op, 0) + 1
    record(tenant, ops)


def apply_many(tenant: str, events: Iterable[Any], clock: Callable[[], datetime],
               expand: Expander | None, actor: str | None = None) -> Plan[list[WriteResult]]:
    """Events in order, one transaction each. Every event is validated first (a malformed one
    writes nothing at all); if the store then refuses one (say, a record time running back), the
    error says how many were applied before it — those stay, each was its own transaction."""
    parsed = parse_bulk(tenant, events, actor)
    results: list[WriteResult] = []
    for i, ev in enumerate(parsed):
        now, note = clock(), f"{len(results)} applied; event {i} refused: "
        try:
            done: list[WriteResult] = yield Tx(_noted(tenant, ev, now, expand, note), f"apply {ev.op}")
        except GraphMemError as err:  # a driver error, translated and thrown into the plan
            err.args = (note + str(err),)
            raise
        count_writes(tenant, done)
        results.append(done[0])
    return results


def _noted(tenant: str, ev: Any, now: datetime, expand: Expander | None,
           note: str) -> Callable[[], Steps[list[WriteResult]]]:
    """The transaction of one event of :func:`apply_many`, with ``note`` in front of the message
    of a graphmem error it raises (a refusal found inside the transaction leaves the client as it
    is, not through the plan)."""
    def work() -> Steps[list[WriteResult]]:
        try:
            return (yield from unit_tx(tenant, [ev], now, expand, 0))
        except GraphMemError as err:
            err.args = (note + str(err),)
            raise
    return work


def parse_bulk(tenant: str, events: Iterable[Any], actor: str | None = None) -> list[Any]:
    """Validate every event of a bulk load before anything is written."""
    parsed = []
    for i, e in enumerate(events):
        try:
            ev = stamp(parse_event(e), actor)
        except GraphMemError as err:
            raise type(err)(f"event {i}: {err}") from err
        check_event_tenant(tenant, ev.tenant, f"event {i} of the bulk load")
        parsed.append(ev)
    return parsed


class Prepare(Protocol):
    """What parses a batch's message texts before its rules run (``GraphMem._prepare``);
    ``ahead``: only start on them, they are the next batch's."""

    def __call__(self, texts: list[str], ahead: bool = False) -> None: ...


def prepare_new(tenant: str, batch: list[Any], prepare: Prepare, ahead: bool = False) -> Steps[None]:
    """Parse ahead the batch's messages that are not stored yet: a re-imported transcript (the
    same ids) parses nothing. One read; if a message lands or goes meanwhile, the transaction still
    decides (an unparsed new message is parsed when it is drawn). ``ahead``: the next batch, whose
    parse only starts here."""
    new = [e for e in batch if e.op == "message" and e.drawn is None]
    if new:
        rows = yield from run_query("load/event_ids", tenant, ids=[f"message:{e.id}" for e in new])
        stored = {r["event_id"] for r in rows}
        new = [e for e in new if f"message:{e.id}" not in stored]
    prepare([e.text for e in new], ahead)
