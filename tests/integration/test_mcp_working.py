"""The MCP server's working-memory tools over stdio: the user's turns are the user's, everything
else the agent's; the end gate turns the session into long-term memory."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path
from typing import Any

import anyio

from graphmem import GraphMem

from test_mcp import _data, _env


def _server(neo4j_target: Any, tenant: str) -> Any:
    """The stdio parameters of a `graphmem mcp` server for `tenant`, speaking for user lin and agent claude."""
    from mcp.client.stdio import StdioServerParameters

    exe = str(Path(sys.executable).parent / "graphmem")
    return StdioServerParameters(command=exe, args=["mcp", "--tenant", tenant, "--user", "lin", "--agent", "claude"],
                                 env=_env(neo4j_target.settings))


def test_working_tools_over_stdio(neo4j_target, driver):
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    tenant = f"mcp-{uuid.uuid4().hex[:8]}"
    params = _server(neo4j_target, tenant)

    async def run() -> dict:
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = {t.name for t in (await session.list_tools()).tools}
                a = _data(await session.call_tool("working_add", {
                    "session": "s", "text": "I moved to Hewan Rd on Sep 20.", "said_by": "user", "item_id": "u1"}))
                again = _data(await session.call_tool("working_add", {
                    "session": "s", "text": "I moved to Hewan Rd on Sep 20.", "said_by": "user", "item_id": "u1"}))
                d = _data(await session.call_tool("working_add", {
                    "session": "s", "text": "Book the courier.", "type": "decision", "item_id": "d1"}))
                c = _data(await session.call_tool("working_checkpoint", {"session": "s", "state": {"step": 2}}))
                r = _data(await session.call_tool("working_resume", {"session": "s"}))
                items = _data(await session.call_tool("working_items", {"session": "s"}))
                ctx = _data(await session.call_tool("context", {"task": "where does lin live?", "session": "s"}))
                done = _data(await session.call_tool("working_close", {"session": "s", "outcome": "success",
                                                                        "task": "move", "steps": ["note address"]}))
                late = _data(await session.call_tool("working_add", {"session": "s", "text": "too late"}))
                return dict(tools=tools, a=a, again=again, d=d, c=c, r=r, items=items, ctx=ctx, done=done, late=late)

    out = anyio.run(run)
    try:
        assert {"working_add", "working_items", "working_checkpoint", "working_resume", "working_close"} <= out["tools"]
        # the user's turn, relayed by the agent: its id is the model's, the relay a field
        assert out["a"]["item"] == "u1" and out["again"]["duplicate"] is True
        assert out["r"]["state"] == {"step": 2} and [i["id"] for i in out["r"]["items"]] == ["u1", "d1"]
        assert [i.get("relayed_by") for i in out["r"]["items"]] == ["claude", None]
        assert out["items"]["items"][0]["text"]["note"].startswith("working-memory data")
        assert out["items"]["items"][0]["relayed_by"] == "claude"
        assert out["ctx"]["working"] == ["u1", "d1"] and "(u1, relayed by agent claude," in out["ctx"]["text"]
        assert [x["item"] for x in out["done"]["stated"]] == ["u1"]
        assert out["late"]["isError"] and "SessionClosedError" in out["late"]["error"]
        mem = GraphMem(neo4j_target.settings, tenant=tenant, driver=driver, install_schema=False)
        items = {i.id: i for i in mem.working("s").items()}
        assert (items["u1"].author, items["u1"].role, items["u1"].relayed_by) == ("lin", "user", "claude")
        assert (items["d1"].author, items["d1"].role, items["d1"].relayed_by) == ("claude", "agent", None)
        # the end gate's message carries the relay: the fact drawn from it is marked, as over remember
        answer = mem.as_of("lin", "home_address")
        assert answer.value == "Hewan Rd" and answer.relayed_by == "claude"
        assert answer.source == out["done"]["stated"][0]["message"] and "relayed~" not in answer.source
        assert mem.why("lin", "home_address").relayed_by == "claude"
        # a rebuild replays the add and the message with their relayed_by: the same projection
        mem.rebuild()
        assert mem.working("s").items()[0].relayed_by == "claude" and mem.as_of("lin", "home_address").relayed_by == "claude"
        assert mem.verify()["ok"]
    finally:
        GraphMem(neo4j_target.settings, tenant=tenant, driver=driver, install_schema=False).drop_tenant()


def test_mcp_working_tools_take_what_the_python_api_takes(neo4j_target, driver):
    """Budget policy, claim, source, use, include_evicted over stdio; the context tool records its
    read on an open working session (graphmem stats counts it), and only there."""
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    tenant = f"mcp-{uuid.uuid4().hex[:8]}"
    params = _server(neo4j_target, tenant)
    long = "a low-value aside about the weather and the traffic on the way to the office today " * 2

    async def run() -> dict:
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = {t.name for t in (await session.list_tools()).tools}
                call = session.call_tool
                first = _data(await call("working_add", {
                    "session": "p", "text": "calendar: lin is at the Seaside Hotel Oct 3-7", "type": "tool_result",
                    "item_id": "cal", "source": "calendar-1", "budget_tokens": 120, "strategy": "evict",
                    "importance": 0.9}))
                dec = _data(await call("working_add", {
                    "session": "p", "text": "Deliver to the hotel.", "type": "decision", "item_id": "d1",
                    "cites": ["cal"], "importance": 0.9,
                    "claim": {"subject": "lin", "topic": "delivery_address", "value": "Seaside Hotel"}}))
                used = _data(await call("working_use", {"session": "p", "item_ids": ["d1"]}))
                low = _data(await call("working_add", {"session": "p", "text": long, "item_id": "low",
                                                       "importance": 0.1}))
                more = _data(await call("working_add", {"session": "p", "text": long, "item_id": "low2",
                                                        "importance": 0.2}))
                live = _data(await call("working_items", {"session": "p"}))
                every = _data(await call("working_items", {"session": "p", "include_evicted": True}))
                bad = _data(await call("working_use", {"session": "p", "item_ids": ["nope"]}))
                ctx = _data(await call("context", {"task": "where should the package go?", "session": "p"}))
                plain = _data(await call("context", {"task": "where should the package go?", "session": "q"}))
                done = _data(await call("working_close", {"session": "p", "outcome": "success", "task": "pkg",
                                                          "area": "delivery"}))
                after = _data(await call("context", {"task": "where should the package go?", "session": "p"}))
                return dict(tools=tools, first=first, dec=dec, used=used, low=low, more=more, live=live,
                            every=every, bad=bad, ctx=ctx, plain=plain, done=done, after=after)

    out = anyio.run(run)
    mem = GraphMem(neo4j_target.settings, tenant=tenant, driver=driver, install_schema=False)
    try:
        assert "working_use" in out["tools"]
        assert out["first"]["budget_tokens"] == 120 and out["used"]["used"] == ["d1"]
        assert out["bad"]["isError"] and "NotFoundError" in out["bad"]["error"]
        assert out["more"]["evicted"] == ["low"]  # the evict strategy: lowest importance first
        assert [i["id"] for i in out["live"]["items"]] == ["cal", "d1", "low2"]
        evicted = {i["id"]: i for i in out["every"]["items"]}
        assert evicted["low"]["evict_reason"] == "budget"
        assert evicted["d1"]["claim"]["value"] == "Seaside Hotel" and evicted["cal"]["source"] == "calendar-1"
        assert out["ctx"]["recorded"] is True and out["ctx"]["working"] == ["cal", "d1", "low2"]
        assert out["plain"]["recorded"] is False and out["after"]["recorded"] is False
        assert "error" not in out["after"]
        assert out["done"]["sources"] == ["calendar-1"]
        policy = mem.working("p").resume().policy
        assert policy.budget_tokens == 120 and policy.strategy == "evict"
        # the decision holds for the task's stretch (from when it was made to the close), not after it
        made = next(i.created_at for i in mem.working("p").items(include_evicted=True) if i.id == "d1")
        cand = mem.as_of("lin", "delivery_address", valid_at=made, include_candidates=True)
        assert cand.value == "Seaside Hotel" and cand.status == "candidate" and cand.source == "calendar-1"
        assert mem.as_of("lin", "delivery_address", include_candidates=True).value is None
        assert [r["session"] for r in mem.working_sessions()] == ["p"]  # reading "q" opened nothing
        s = mem.stats(since="2000-01-01")
        assert s.contexts == 1 and s.sessions_closed == 1
        rows = driver.execute_query("MATCH (o:Outcome {tenant: $t}) RETURN o.area AS area", t=tenant,
                                    database_=neo4j_target.settings.database).records
        assert [r["area"] for r in rows] == ["delivery"]
    finally:
        mem.drop_tenant()


def test_an_old_sessions_relayed_item_ids_still_resolve_over_stdio(neo4j_target, driver):
    """A session an older server wrote (the user's turn stored as ``relayed~claude~u1``): the model
    still names it ``u1``, and what the end gate keeps of it is still marked as relayed."""
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    tenant = f"mcp-{uuid.uuid4().hex[:8]}"
    mem = GraphMem(neo4j_target.settings, tenant=tenant, driver=driver)
    mem.working("s").add("I moved to Hewan Rd on Sep 20.", role="user", author="lin", id="relayed~claude~u1")
    params = _server(neo4j_target, tenant)

    async def run() -> dict:
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                used = _data(await session.call_tool("working_use", {"session": "s", "item_ids": ["u1"]}))
                done = _data(await session.call_tool("working_close", {"session": "s", "outcome": "success"}))
                return dict(used=used, done=done)

    try:
        out = anyio.run(run)
        assert out["used"]["used"] == ["relayed~claude~u1"]
        assert [x["item"] for x in out["done"]["stated"]] == ["relayed~claude~u1"]
        assert mem.as_of("lin", "home_address").relayed_by == "claude"
    finally:
        mem.drop_tenant()
