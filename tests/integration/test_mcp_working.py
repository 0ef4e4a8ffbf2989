"""The MCP server's working-memory tools over stdio: the user's turns are the user's, everything
else the agent's; the end gate turns the session into long-term memory."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import anyio

from graphmem import GraphMem

from test_mcp import _data, _env


def test_working_tools_over_stdio(neo4j_target, driver):
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    tenant = f"mcp-{uuid.uuid4().hex[:8]}"
    exe = str(Path(sys.executable).parent / "graphmem")
    params = StdioServerParameters(command=exe, args=["mcp", "--tenant", tenant, "--user", "lin", "--agent", "claude"],
                                   env=_env(neo4j_target.settings))

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
        assert out["a"]["item"] == "u1" and out["again"]["duplicate"] is True
        assert out["r"]["state"] == {"step": 2} and [i["id"] for i in out["r"]["items"]] == ["u1", "d1"]
        assert out["items"]["items"][0]["text"]["note"].startswith("working-memory data")
        assert out["ctx"]["working"] == ["u1", "d1"]
        assert [x["item"] for x in out["done"]["stated"]] == ["u1"]
        assert "error" in out["late"]
        mem = GraphMem(neo4j_target.settings, tenant=tenant, driver=driver, install_schema=False)
        items = {i.id: i for i in mem.working("s").items()}
        assert items["u1"].author == "lin" and items["u1"].role == "user"
        assert items["d1"].author == "claude" and items["d1"].role == "agent"
        assert mem.as_of("lin", "home_address").value == "Hewan Rd"
    finally:
        GraphMem(neo4j_target.settings, tenant=tenant, driver=driver, install_schema=False).drop_tenant()
