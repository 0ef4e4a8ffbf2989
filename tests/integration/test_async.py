"""The async client runs the same operations (models, Cypher, validation) on the async driver."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from graphmem.store.aio import AsyncGraphMem
from graphmem.core.errors import TemporalError, ValidationError
from graphmem.bench.evaluation import run_files_async


def _run(coro):
    return asyncio.run(coro)


def test_async_client_passes_the_structured_suite(neo4j_target, eval_dir):
    async def go():
        async with AsyncGraphMem(neo4j_target.settings, tenant="async-eval") as mem:
            return await run_files_async(mem, [eval_dir / "scenarios.json"])
    report = _run(go())
    assert [f.line() for f in report.failures] == []
    assert (report.passed, report.failed) == (57, 0)


def test_async_writes_reads_and_errors(neo4j_target):
    async def go():
        async with AsyncGraphMem(neo4j_target.settings, tenant=f"async-{uuid.uuid4().hex[:8]}") as mem:
            try:
                await mem.set("deploy", "port", "8000", recorded_at="2026-11-01T10:00:00Z")
                await mem.apply_bulk([{"op": "set", "subject": "deploy", "topic": "port", "value": "9000",
                                       "recorded_at": "2026-11-01T10:30:00Z"}])
                now = await mem.as_of("deploy", "port")
                before = await mem.as_of("deploy", "port", valid_at="2026-11-01T10:10:00Z")
                history = await mem.history_values("deploy", "port")
                with pytest.raises(TemporalError):
                    await mem.set("deploy", "port", "1", recorded_at="2020-01-01")
                with pytest.raises(ValidationError):
                    await mem.apply({"op": "nope"})
                seqs = [e["seq"] async for e in mem.events()]
                assert await mem.rebuild() == 2
                after = await mem.as_of("deploy", "port")
                return now.value, before.value, history, seqs, after.value
            finally:
                await mem.drop_tenant()
    assert _run(go()) == ("9000", "8000", ["8000", "9000"], [1, 2], "9000")


def test_sync_and_async_clients_share_one_implementation():
    """No copy-pasted twin: every operation is defined once (graphmem.store.surface); both clients get
    it from the faces generated from that definition and redefine none of it."""
    from graphmem.store import surface
    from graphmem.store.api import StoreApi
    from graphmem.store.client import GraphMem
    from graphmem.store.faces import AsyncFace, SyncFace
    from graphmem.store.objects import StoreObjects

    public = {n for n in surface.__all__ if callable(getattr(surface, n))}
    assert {"apply", "apply_bulk", "as_of", "history", "why", "path", "rebuild"} <= public
    assert public <= set(vars(SyncFace)) and public <= set(vars(AsyncFace))
    shared = public | {n for base in (StoreApi, StoreObjects) for n in vars(base) if not n.startswith("_")}
    assert {"working", "playbooks"} <= shared
    for cls in (GraphMem, AsyncGraphMem):
        assert not (shared & set(vars(cls))), f"{cls.__name__} redefines a shared method"


def test_async_playbooks_and_working_memory_are_awaited_faces(neo4j_target):
    """``amem.playbooks`` and ``amem.working(s)`` are the async faces: each method is awaited and gives
    what the sync face returns (graphmem.playbooks.faces, graphmem.working.faces)."""
    from graphmem.playbooks.faces import AsyncPlaybooks
    from graphmem.working.faces import AsyncWorkingMemory

    async def go():
        async with AsyncGraphMem(neo4j_target.settings, tenant=f"async-{uuid.uuid4().hex[:8]}") as mem:
            try:
                pb, wm = mem.playbooks, mem.working("s-1", budget_tokens=500)
                assert isinstance(pb, AsyncPlaybooks) and isinstance(wm, AsyncWorkingMemory)
                assert await pb.record_outcome("deploy", ["edit by hand"], "failure") is None
                card = await pb.record_outcome("deploy", ["run migrations"], "success")
                with pytest.raises(ValidationError):
                    await pb.record_outcome("deploy", ["x"], "maybe")
                added = await wm.add("deploy uses port 8000", type="decision", id="i-1")
                again = await wm.add("deploy uses port 8000", type="decision", id="i-1")
                resumed = await wm.resume()
                return (card["recommended_steps"], [c["uid"] for c in await pb.cards()] == [card["uid"]],
                        added.duplicate, again.duplicate, [i.id for i in resumed.items], resumed.policy.budget_tokens)
            finally:
                await mem.drop_tenant()
    assert _run(go()) == (["run migrations"], True, False, True, ["i-1"], 500)
