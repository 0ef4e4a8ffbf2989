"""The bulk path: ``batch_size`` events to a transaction, a batch's rules run while the batch before
it commits.

Run one after another, each batch waits twice: the client for the server while the batch's
writes and commit run, the server for the client while the next batch's rules run. Here the two
overlap, and the outcome stays that of batches run one after another:

1. **Ahead.** Batch k+1 is applied in memory before its transaction, by a unit of work that carries
   on from batch k's (:meth:`UnitOfWork.next`): the slots, sources, topics and ids batch k read or
   changed are kept as batch k left them, so nothing batch k wrote needs reading back. What batch
   k never touched is read from the database, where batch k's uncommitted writes cannot have
   changed it. A read the carried state cannot vouch for (an extractor's context, ``fact/recent``)
   first waits for batch k's commit. The batch's ledger entries are chained onto batch k's.
2. **Behind.** Once batch k has committed, batch k+1's transaction starts behind the plan
   (:class:`~graphmem.store.plans.Start`, another connection) while batch k+2's rules run. The
   sync client runs it on a thread; the async client as a task, which moves on only while the
   event loop is free (while the plan awaits a read), so there the overlap is smaller.
3. **Checked.** That transaction takes the ledger lock and writes only if the head is the one batch
   k+1 was applied after (:meth:`Sealed.commit`). If another writer came between — or batch k+1's
   rules refused an event, or a read ahead failed other than for want of a server — the batch is
   applied again the plain way, inside its transaction (so a refused event raises there, with its
   index, after the batches before it committed), and the next batch starts afresh from the ledger
   head. No server (the driver has retried already) ends the load at once.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Iterable, TypeVar

from ..core.answers import WriteResult
from ..core.errors import ConnectionError_, GraphMemError
from . import projection
from .plans import Plan, Start, Tx, Wait
from .projection import Expander
from .queries import Steps
from .writes import Prepare, apply_events, count_writes, parse_bulk, prepare_new, unit_tx

if TYPE_CHECKING:  # the unit of work is loaded on first use: a CLI read never writes
    from .projection.unit_of_work import Sealed, UnitOfWork

__all__ = ["CARRY_LIMIT", "READS_AHEAD", "apply_bulk"]

T = TypeVar("T")

# The reads of a unit of work that may run while the batch before it commits: each asks for named
# slots, sources, topics, facts or ids, and the carried state answers for every one the batch
# before changed, so the database's answer for the rest is the same before and after its commit.
READS_AHEAD = frozenset({"ledger/peek", "load/sources", "load/topics", "load/slots", "load/facts_by_ref",
                         "load/facts_by_uid", "load/event_ids"})


# How much a unit of work may hold (slots, facts, sources, ids) and still be carried into the next
# batch: past it, the next batch starts afresh from the ledger head (after waiting for the batch
# behind), so a long import keeps the client's memory bounded as it did one batch at a time.
CARRY_LIMIT = 50_000


class _Stale(Exception):
    """The batch behind was applied again: what was applied ahead of it no longer holds."""


class _Behind:
    """The batch whose transaction runs behind the plan; its results are gathered when it ends."""

    def __init__(self, tenant: str, progress: Callable[[int], None] | None) -> None:
        self.tenant, self.progress = tenant, progress
        self.handle: Any = None
        self.size = 0
        self.failed = False
        self.results: list[WriteResult] = []

    def start(self, work: Callable[[], Steps[tuple[list[WriteResult], bool]]], size: int) -> Plan[None]:
        self.handle = yield Start(Tx(work, "apply_bulk"))
        self.size = size

    def wait(self) -> Plan[bool]:
        """Wait for the batch behind to commit; False if it was applied again (the chain broke)."""
        if self.handle is None:
            return True
        handle, self.handle = self.handle, None
        try:
            done, as_sealed = yield Wait(handle)
        except BaseException:
            self.failed = True
            raise
        count_writes(self.tenant, done)
        self.results.extend(done)
        if self.progress is not None:
            self.progress(self.size)
        return bool(as_sealed)


def _ahead(steps: Steps[T], behind: _Behind) -> Plan[T]:
    """Run a unit's reads outside its transaction: those in :data:`READS_AHEAD` at once, any other
    after the batch behind has committed."""
    result: Any = None
    while True:
        try:
            call = steps.send(result)
        except StopIteration as stop:
            value: T = stop.value
            return value
        if call.name not in READS_AHEAD and not (yield from behind.wait()):
            raise _Stale()
        result = yield call


def _apply_ahead(carried: UnitOfWork | None, tenant: str, batch: list[Any], now: datetime,
                 expand: Expander | None, start: int,
                 behind: _Behind) -> Plan[tuple[UnitOfWork, Sealed, list[WriteResult]] | None]:
    """The batch applied ahead of its transaction, carrying on from ``carried`` (None: from the
    ledger head once the batch behind has committed); None if it has to be applied the plain way."""
    try:
        if carried is None:
            yield from behind.wait()
            unit = yield from _ahead(projection.UnitOfWork.ahead(tenant, now, expand), behind)
        else:
            unit = carried.next(now)
        results = yield from _ahead(apply_events(unit, batch, start), behind)
        return unit, unit.seal(), results
    except (GraphMemError, _Stale) as e:
        # The batch behind failed, or no server answers (the driver has retried already: the plain
        # way would only retry as long again): that error ends the load.
        if behind.failed or isinstance(e, ConnectionError_):
            raise
        return None


def _commit(sealed: Sealed | None, results: list[WriteResult], tenant: str, batch: list[Any], now: datetime,
            expand: Expander | None, start: int) -> Steps[tuple[list[WriteResult], bool]]:
    """A batch's transaction: its sealed writes if the ledger head is still the one they were
    applied after, else the batch applied anew under the lock. Says which it was."""
    if sealed is not None and (yield from sealed.commit()):
        return results, True
    return (yield from unit_tx(tenant, batch, now, expand, start)), False


def apply_bulk(tenant: str, events: Iterable[Any], clock: Callable[[], datetime], expand: Expander | None,
               batch_size: int, progress: Callable[[int], None] | None, actor: str | None = None,
               prepare: Prepare | None = None) -> Plan[list[WriteResult]]:
    """Many events in order, ``batch_size`` to a transaction; each batch is atomic, and a refused
    event raises with its index after the batches before it have committed. ``prepare`` gets each
    batch's new message texts first, so the extractor can parse them in one pass, and the next
    batch's with ``ahead=True`` so that parse can start while this batch's rules run."""
    parsed = parse_bulk(tenant, events, actor)
    behind = _Behind(tenant, progress)
    carried: UnitOfWork | None = None
    for start in range(0, len(parsed), batch_size):
        batch, now = parsed[start:start + batch_size], clock()
        if prepare is not None:
            yield from _ahead(prepare_new(tenant, batch, prepare), behind)
            upcoming = parsed[start + batch_size:start + 2 * batch_size]
            if upcoming:  # the parse worker starts on the next batch while this one's rules run
                yield from _ahead(prepare_new(tenant, upcoming, prepare, ahead=True), behind)
        ahead = yield from _apply_ahead(carried, tenant, batch, now, expand, start, behind)
        if not (yield from behind.wait()):
            ahead = None
        sealed, results = (ahead[1], ahead[2]) if ahead is not None else (None, [])
        yield from behind.start(partial(_commit, sealed, results, tenant, batch, now, expand, start), len(batch))
        carried = ahead[0] if ahead is not None and ahead[0].held() <= CARRY_LIMIT else None
    yield from behind.wait()
    return behind.results
