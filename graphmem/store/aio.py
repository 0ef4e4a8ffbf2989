"""The asynchronous client: the same operations on the neo4j async driver.

Its public operations are those of :mod:`graphmem.store.surface` — the same models, Cypher and
validation — typed by the generated :class:`graphmem.store.faces.AsyncFace`; each returns a coroutine::

    async with AsyncGraphMem(tenant="acme") as mem:
        await mem.set("deploy", "port", "8000")
        answer = await mem.as_of("deploy", "port")
"""

from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator, LiteralString, TypeVar

import neo4j
from neo4j.api import AsyncBookmarkManager

from . import ops
from .api import DRIVER_ERRORS, Clock, read_retry_delays, retryable, settings_of, utcnow
from .faces import AsyncFace
from .queries import Call, row, sendable
from .runner import PlanRun
from ..core.scope import check_call
from .settings import Settings
from .surface import When

__all__ = ["AsyncGraphMem"]

T = TypeVar("T")


async def _drive_tx(tx: neo4j.AsyncManagedTransaction, steps: Any, tenant: str) -> Any:
    try:
        call = steps.send(None)
        while True:
            check_call(tenant, call)
            q = call.query
            result = await tx.run(q.text, sendable(call.params))
            call = steps.send([row(r) async for r in result])
    except StopIteration as stop:
        return stop.value


class AsyncGraphMem(AsyncFace):
    """A temporal memory store for one tenant, on the async driver. ``await`` every method.

    Like :class:`graphmem.GraphMem`, its write transactions and routed reads share one bookmark
    manager (the driver's unless ``bookmark_manager=`` is given), so it reads its own writes.
    """

    def __init__(self, settings: Settings | None = None, *, tenant: str = "default",
                 driver: neo4j.AsyncDriver | None = None, clock: Clock = utcnow, extractor: Any = None,
                 embedder: Any = None, actor: str | None = None,
                 bookmark_manager: AsyncBookmarkManager | None = None, uri: str | None = None,
                 user: str | None = None, password: str | None = None, database: str | None = None) -> None:
        """``settings`` (default: the environment's), or ``uri``, ``user``, ``password``,
        ``database`` on top of them, as for :class:`~graphmem.store.client.GraphMem`."""
        super().__init__(settings_of(settings, uri, user, password, database), tenant, clock, extractor, embedder,
                         actor)
        self._owns_driver = driver is None
        self._driver = driver or self._connect(neo4j.AsyncGraphDatabase.driver)
        self._bookmarks = bookmark_manager or self._driver.execute_query_bookmark_manager

    @property
    def bookmark_manager(self) -> AsyncBookmarkManager:
        """The bookmark manager this client's writes and reads share."""
        return self._bookmarks

    def for_tenant(self, tenant: str) -> "AsyncGraphMem":
        return AsyncGraphMem(self.settings, tenant=tenant, driver=self._driver, clock=self._clock,
                             extractor=self._extractor, embedder=self._embedder or None, actor=self.actor,
                             bookmark_manager=self._bookmarks)

    async def close(self) -> None:
        if self._owns_driver:
            await self._driver.close()

    async def __aenter__(self) -> "AsyncGraphMem":
        await self.ensure_schema()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def events(self, *, after: int = 0, batch: int = 1000) -> AsyncIterator[dict[str, Any]]:
        while rows := await self.events_page(after=after, limit=batch):
            for row in rows:
                yield row
            after = rows[-1]["seq"]

    async def history_values(self, subject: str, topic: str, *, env: str | None = None,
                             known_at: When | None = None, session: str | None = None,
                             include_candidates: bool = False) -> list[str]:
        """The history as docs/format.md counts it: values in the order they became valid, repeats merged.

        >>> await mem.history_values("deploy", "port")
        ['8000', '8080']
        """
        return ops.history_values(await self.history(subject, topic, env=env, known_at=known_at, session=session,
                                                     include_candidates=include_candidates))

    async def _step(self, step: Any) -> Any:
        db = self.settings.database
        if isinstance(step, Call):
            check_call(self.tenant, step)
            q = step.query
            return [row(r) for r in await self._read(q.text, sendable(step.params))]
        if isinstance(step, ops.Tx):
            if not self._reached:  # a write retries for 30 s: first make sure a server answers at all
                await self._driver.verify_connectivity()
            async with self._driver.session(database=db, bookmark_manager=self._bookmarks) as session:
                done = await session.execute_write(lambda tx: _drive_tx(tx, step.work(), self.tenant))
            self._reached = True
            return done
        if isinstance(step, ops.Start):  # the step runs as a task of its own while the plan goes on
            return asyncio.ensure_future(self._step(step.step))
        if isinstance(step, ops.Wait):
            return await step.handle
        await self._driver.execute_query(step.text, database_=db, bookmark_manager_=self._bookmarks)
        return None

    async def _read(self, text: LiteralString, params: dict[str, Any]) -> list[neo4j.Record]:
        """One read as an auto-commit transaction in a READ session (one round trip; retried
        like a managed transaction: graphmem.store.api.READ_RETRY_SECONDS)."""
        delays = read_retry_delays(self._retry_seconds())
        while True:
            try:
                async with self._driver.session(database=self.settings.database,
                                                default_access_mode=neo4j.READ_ACCESS,
                                                bookmark_manager=self._bookmarks) as session:
                    result = await session.run(text, params)
                    records = [record async for record in result]
                self._reached = True
                return records
            except DRIVER_ERRORS as e:
                delay = next(delays, None) if retryable(e) else None
                if delay is None:
                    raise
            await asyncio.sleep(delay)

    async def _run_async(self, plan: ops.Plan[T]) -> T:
        run = PlanRun(plan, self.settings)
        try:
            while not run.done:
                try:
                    result = await self._step(run.step)
                except DRIVER_ERRORS as e:
                    run.throw(e)
                else:
                    run.send(result)
        finally:  # a plan stopped by an error: its transactions behind still end before the call does
            await asyncio.gather(*run.started, return_exceptions=True)
        return run.value
