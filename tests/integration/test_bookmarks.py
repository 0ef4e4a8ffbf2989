"""Read your own writes on a cluster: the client's write transactions and routed reads share one
bookmark manager, so a read waits for the write before it (docs/scaling.md). On one server every
read sees the last commit anyway, so these tests check that the bookmark *travels*: the write's
bookmark is what the next read asks for, over a ``neo4j://`` routing URI and a named database,
in the sync and the async client, and across two drivers (two processes) when handed on."""

from __future__ import annotations

import asyncio
import uuid

import neo4j
from neo4j.api import AsyncBookmarkManager, BookmarkManager

from graphmem import GraphMem
from graphmem.store.aio import AsyncGraphMem
from graphmem.store.settings import Settings


def _routed(neo4j_target) -> Settings:
    s = neo4j_target.settings
    return Settings(uri=s.uri.replace("bolt://", "neo4j://"), user=s.user, password=s.password, database="neo4j")


class Spy(BookmarkManager):
    """A bookmark manager that logs what each transaction was given and what came back."""

    def __init__(self) -> None:
        self.bookmarks: frozenset[str] = frozenset()
        self.log: list[tuple[str, frozenset[str]]] = []

    def update_bookmarks(self, previous_bookmarks, new_bookmarks) -> None:
        self.bookmarks = frozenset(new_bookmarks) | (self.bookmarks - frozenset(previous_bookmarks))
        self.log.append(("update", frozenset(new_bookmarks)))

    def get_bookmarks(self):
        self.log.append(("get", self.bookmarks))
        return set(self.bookmarks)


class AsyncSpy(AsyncBookmarkManager):
    def __init__(self) -> None:
        self.sync = Spy()

    async def update_bookmarks(self, previous_bookmarks, new_bookmarks) -> None:
        self.sync.update_bookmarks(previous_bookmarks, new_bookmarks)

    async def get_bookmarks(self):
        return self.sync.get_bookmarks()


def _write_then_read(log: list[tuple[str, frozenset[str]]], mark: int) -> None:
    """After position ``mark``: a write produced a bookmark, and a later 'get' handed exactly it on."""
    after = log[mark:]
    updates = [i for i, (kind, marks) in enumerate(after) if kind == "update" and marks]
    assert updates, f"the write returned no bookmark: {after}"
    written = after[updates[0]][1]
    assert any(kind == "get" and written <= marks for kind, marks in after[updates[0] + 1:]), \
        f"no read after the write asked for its bookmark: {after}"


def test_sync_client_reads_its_own_writes_with_bookmarks(neo4j_target):
    spy = Spy()
    with GraphMem(_routed(neo4j_target), tenant=f"bm-{uuid.uuid4().hex[:8]}", bookmark_manager=spy) as mem:
        try:
            mark = len(spy.log)
            mem.set("deploy", "port", "8000")
            assert mem.as_of("deploy", "port").value == "8000"
            _write_then_read(spy.log, mark)
            assert mem.bookmark_manager is spy and mem.for_tenant("other").bookmark_manager is spy
        finally:
            mem.drop_tenant()


def test_default_manager_chains_writes_and_reads_on_one_driver(neo4j_target):
    """Without a manager given, the driver's own (the one execute_query uses) joins both."""
    with GraphMem(_routed(neo4j_target), tenant=f"bm-{uuid.uuid4().hex[:8]}") as mem:
        try:
            before = set(mem.bookmark_manager.get_bookmarks())
            mem.set("deploy", "port", "9000")
            after = set(mem.bookmark_manager.get_bookmarks())
            assert after and after != before, "the write's bookmark never reached the shared manager"
            assert mem.bookmark_manager is mem._driver.execute_query_bookmark_manager
            assert mem.as_of("deploy", "port").value == "9000"
        finally:
            mem.drop_tenant()


def test_bookmarks_handed_to_another_driver(neo4j_target):
    """Another process (here: another driver) continues after the writer's bookmarks."""
    routed = _routed(neo4j_target)
    tenant = f"bm-{uuid.uuid4().hex[:8]}"
    with GraphMem(routed, tenant=tenant) as writer:
        try:
            writer.set("lin", "home", "Hewan Rd")
            handed = set(writer.bookmark_manager.get_bookmarks())
            assert handed
            spy = Spy()
            spy.bookmarks = frozenset(handed)
            with GraphMem(routed, tenant=tenant, bookmark_manager=spy) as reader:
                assert reader.as_of("lin", "home").value == "Hewan Rd"
            assert any(kind == "get" and handed <= marks for kind, marks in spy.log)
        finally:
            writer.drop_tenant()


def test_async_client_reads_its_own_writes_with_bookmarks(neo4j_target):
    spy = AsyncSpy()

    async def go():
        async with AsyncGraphMem(_routed(neo4j_target), tenant=f"bm-{uuid.uuid4().hex[:8]}",
                                 bookmark_manager=spy) as mem:
            try:
                mark = len(spy.sync.log)
                await mem.set("deploy", "port", "8000")
                assert (await mem.as_of("deploy", "port")).value == "8000"
                return mark
            finally:
                await mem.drop_tenant()

    mark = asyncio.run(go())
    _write_then_read(spy.sync.log, mark)
