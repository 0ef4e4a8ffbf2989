"""The synchronous client: one long-lived driver, short sessions, plans run with the sync driver.

A :class:`GraphMem` is bound to one tenant; every query it runs is scoped by that tenant
(``for_tenant`` gives a sibling on the same driver). Its public operations are defined once in
:mod:`graphmem.store.surface` (typed here by the generated :class:`graphmem.store.faces.SyncFace`); this
module only knows how to run a plan.
"""

from __future__ import annotations

import threading
import time
import weakref
from concurrent.futures import Future
from typing import Any, Iterator, LiteralString, TypeVar

import neo4j
from neo4j.api import BookmarkManager

from . import ops
from .api import DRIVER_ERRORS, Clock, read_retry_delays, retryable, settings_of, translate, utcnow
from .faces import SyncFace
from ..core.answers import HistoryEntry
from .queries import Call, row, sendable
from .runner import PlanRun
from ..core.scope import check_call
from .settings import Settings
from .surface import When

__all__ = ["GraphMem", "utcnow"]

T = TypeVar("T")


def _drive_tx(tx: neo4j.ManagedTransaction, steps: Any, tenant: str) -> Any:
    """Run a unit of work's calls in one managed transaction (each checked against the bound tenant)."""
    try:
        call = steps.send(None)
        while True:
            check_call(tenant, call)
            q = call.query
            call = steps.send([row(r) for r in tx.run(q.text, sendable(call.params))])
    except StopIteration as stop:
        return stop.value


def _behind(step: Any, work: ops.Tx | Call) -> "Future[Any]":
    """Run a transaction or a read on a thread of its own (a session of its own, from the driver's
    pool) and hand back its future: what :class:`~graphmem.store.plans.Start` asks for."""
    done: Future[Any] = Future()

    def run() -> None:
        try:
            done.set_result(step(work))
        except BaseException as e:  # handed to whoever waits, as the step would have raised it
            done.set_exception(e)

    threading.Thread(target=run, name=f"graphmem {work.name}").start()
    return done


# Drivers whose database was found (or made) to carry the schema, per database name: a process
# that makes many clients on one driver checks once.
_SCHEMA_READY: "weakref.WeakKeyDictionary[Any, set[str | None]]" = weakref.WeakKeyDictionary()
# Recall's plans warmed behind the constructor, once per driver (graphmem.recall.warm): the warm-up's
# future and the event that stops it. Nothing waits for it: a question asked before it ends plans
# what it needs itself, as it would have without it, so the warm-up can only shorten a first call,
# never lengthen it. Only close() waits, for the one query in flight (a driver closed under a running
# query fails in the driver's buffers).
_WARMING: "weakref.WeakKeyDictionary[Any, tuple[Future[Any], threading.Event]]" = weakref.WeakKeyDictionary()


class GraphMem(SyncFace):
    """A temporal memory store for one tenant. Use as a context manager, or call :meth:`close`.

    Reads see this client's own writes, on a cluster too: the write transactions and the routed
    reads share one bookmark manager (by default the driver's, so every client on one driver is
    causally chained); pass ``bookmark_manager=`` (``neo4j.GraphDatabase.bookmark_manager(
    initial_bookmarks=…)``) to continue after another process's writes (docs/scaling.md).
    """

    def __init__(self, settings: Settings | None = None, *, tenant: str = "default",
                 driver: neo4j.Driver | None = None, clock: Clock = utcnow,
                 extractor: Any = None, install_schema: bool = True, embedder: Any = None,
                 actor: str | None = None, bookmark_manager: BookmarkManager | None = None,
                 uri: str | None = None, user: str | None = None, password: str | None = None,
                 database: str | None = None, warm: bool | None = None) -> None:
        """``settings`` (default: the environment's, docs/configuration.md), or ``uri``, ``user``,
        ``password``, ``database`` on top of them: ``GraphMem(uri="neo4j://db:7687", password=...)``.
        ``warm``: plan recall's queries on the server behind the constructor, once per driver, so the
        first ``context()`` does not pay for planning them (graphmem.recall.warm); a short-lived
        process (the CLI) turns it off. By default only a client that owns its driver warms: a
        borrowed ``driver=`` is closed by its owner, who cannot see a warm-up still running on it
        (a driver closed under a running query fails in the driver's buffers); ``warm=True``
        warms it anyway, and then the client must be closed before the driver."""
        super().__init__(settings_of(settings, uri, user, password, database), tenant, clock, extractor, embedder,
                         actor)
        self._owns_driver = driver is None
        self._driver = driver or self._connect(neo4j.GraphDatabase.driver)
        self._bookmarks = bookmark_manager or self._driver.execute_query_bookmark_manager
        if install_schema:
            ready = _SCHEMA_READY.setdefault(self._driver, set())
            if self.settings.database not in ready:
                self.ensure_schema()
                ready.add(self.settings.database)
            if (self._owns_driver if warm is None else warm) and self._driver not in _WARMING:
                _WARMING[self._driver] = self._warm_behind()

    @property
    def bookmark_manager(self) -> BookmarkManager:
        """The bookmark manager this client's writes and reads share (hand its bookmarks on)."""
        return self._bookmarks

    def for_tenant(self, tenant: str) -> "GraphMem":
        """The same store, another tenant, sharing this client's driver and bookmarks."""
        return GraphMem(self.settings, tenant=tenant, driver=self._driver, clock=self._clock,
                        extractor=self._extractor, install_schema=False, embedder=self._embedder or None,
                        actor=self.actor, bookmark_manager=self._bookmarks)

    def close(self) -> None:
        """Stop the driver's warm-up between two queries (it only ever shortens a first call), then
        close the driver if this client made it."""
        warming = _WARMING.get(self._driver)
        if warming is not None and (self._owns_driver or not warming[0].done()):
            warming[1].set()
            warming[0].exception()
        if self._owns_driver:
            self._driver.close()

    def __enter__(self) -> "GraphMem":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _warm_behind(self) -> tuple["Future[Any]", threading.Event]:
        """``warm_plans()`` on a daemon thread of its own (a process that ends early does not wait
        for it), stopped before its next query once the event is set."""
        done: Future[Any] = Future()
        stop = threading.Event()
        sibling = self.for_tenant(self.tenant)
        sibling._stop = stop

        def run() -> None:
            try:
                done.set_result(sibling.warm_plans())
            except BaseException as e:  # a failed warm-up costs the first call its planning, nothing else
                done.set_exception(e)

        threading.Thread(target=run, name="graphmem warm_plans", daemon=True).start()
        return done, stop

    def ping(self) -> str:
        """The server's agent string; raises Neo4jConnectionError when nothing answers."""
        try:
            self._driver.verify_connectivity()
            return self._driver.get_server_info().agent
        except DRIVER_ERRORS as e:
            raise translate(e, "ping", self.settings) from e

    def events(self, *, after: int = 0, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """The tenant's ledger in order (seq, op, payload, recorded_at, ...), page by page."""
        while rows := self.events_page(after=after, limit=batch):
            yield from rows
            after = rows[-1]["seq"]

    def history_values(self, subject: str, topic: str, *, env: str | None = None, known_at: When | None = None,
                       session: str | None = None, include_candidates: bool = False) -> list[str]:
        """The history as docs/format.md counts it: values in the order they became valid, repeats merged.

        >>> mem.history_values("deploy", "port")
        ['8000', '8080']
        """
        entries: list[HistoryEntry] = self.history(subject, topic, env=env, known_at=known_at, session=session,
                                                   include_candidates=include_candidates)
        return ops.history_values(entries)

    # -- running plans ---------------------------------------------------------------------------

    _stop: threading.Event | None = None  # the warm-up's client: set, it runs nothing more

    def _step(self, step: Any) -> Any:
        db = self.settings.database
        if self._stop is not None and self._stop.is_set():
            raise RuntimeError("the client closed before its plans were warmed")
        if isinstance(step, Call):
            check_call(self.tenant, step)
            q = step.query
            return [row(r) for r in self._read(q.text, sendable(step.params))]
        if isinstance(step, ops.Tx):
            if not self._reached:  # a write retries for 30 s: first make sure a server answers at all
                self._driver.verify_connectivity()
            with self._driver.session(database=db, bookmark_manager=self._bookmarks) as session:
                done = session.execute_write(lambda tx: _drive_tx(tx, step.work(), self.tenant))
            self._reached = True
            return done
        if isinstance(step, ops.Start):
            return _behind(self._step, step.step)
        if isinstance(step, ops.Wait):
            return step.handle.result()
        self._driver.execute_query(step.text, database_=db, bookmark_manager_=self._bookmarks)
        return None

    def _read(self, text: LiteralString, params: dict[str, Any]) -> list[neo4j.Record]:
        """One read as an auto-commit transaction in a READ session (one round trip; retried
        like a managed transaction: graphmem.store.api.READ_RETRY_SECONDS)."""
        delays = read_retry_delays(self._retry_seconds())
        while True:
            try:
                with self._driver.session(database=self.settings.database, default_access_mode=neo4j.READ_ACCESS,
                                          bookmark_manager=self._bookmarks) as session:
                    records = list(session.run(text, params))
                self._reached = True
                return records
            except DRIVER_ERRORS as e:
                delay = next(delays, None) if retryable(e) else None
                if delay is None:
                    raise
            time.sleep(delay)

    def _run(self, plan: ops.Plan[T]) -> T:
        run = PlanRun(plan, self.settings)
        try:
            while not run.done:
                try:
                    result = self._step(run.step)
                except DRIVER_ERRORS as e:
                    run.throw(e)
                else:
                    run.send(result)
        finally:  # a plan stopped by an error: its transactions behind still end before the call does
            for handle in list(run.started):
                handle.exception()
        return run.value
