"""The MCP server over stdio, driven by the official SDK's client, as an agent would."""

from __future__ import annotations

import json
import os
import sys
import uuid
from pathlib import Path

import anyio

from graphmem import GraphMem


def _env(settings) -> dict[str, str]:
    env = dict(os.environ, NEO4J_URI=settings.uri)
    if settings.password is not None:
        env["NEO4J_PASSWORD"] = settings.password.get_secret_value()
    if settings.database:
        env["NEO4J_DATABASE"] = settings.database
    return env


def _data(result) -> dict:
    """A tool's answer; a refused call (isError, the one error convention) as {"error": text}."""
    if getattr(result, "is_error", False) or getattr(result, "isError", False):
        return {"error": result.content[0].text, "isError": True}
    if getattr(result, "structuredContent", None):
        data = result.structuredContent
        return data.get("result", data) if isinstance(data, dict) else data
    return json.loads(result.content[0].text)


def test_mcp_tools_over_stdio(neo4j_target):
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    tenant = f"mcp-{uuid.uuid4().hex[:8]}"
    exe = str(Path(sys.executable).parent / "graphmem")
    params = StdioServerParameters(command=exe, args=["mcp", "--tenant", tenant, "--user", "lin", "--agent", "claude"], env=_env(neo4j_target.settings))

    async def session_run() -> dict:
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = {t.name for t in (await session.list_tools()).tools}
                r1 = _data(await session.call_tool("remember", {
                    "text": "我9月20日起搬到河湾路。", "message_id": "m2", "said_by": "user",
                    "at": "2026-09-18T10:00:00Z"}))
                r2 = _data(await session.call_tool("set_fact", {"subject": "deploy", "topic": "port", "value": "8000"}))
                now = _data(await session.call_tool("as_of", {"subject": "lin", "topic": "home_address",
                                                              "valid_at": "2026-10-05T00:00:00Z"}))
                before = _data(await session.call_tool("as_of", {"subject": "lin", "topic": "home_address",
                                                                 "valid_at": "2026-09-10T00:00:00Z"}))
                why = _data(await session.call_tool("why", {"subject": "lin", "topic": "home_address"}))
                hist = _data(await session.call_tool("history", {"subject": "deploy", "topic": "port"}))
                bad = _data(await session.call_tool("as_of", {"subject": "lin", "topic": "x", "valid_at": "soon"}))
                ctx = _data(await session.call_tool("context", {"task": "where does lin live? 地址", "subject": "lin",
                                                                "valid_at": "2026-10-05T00:00:00Z"}))
                gone = _data(await session.call_tool("forget", {"subject": "lin", "reason": "user asked"}))
                cand = _data(await session.call_tool("as_of", {"subject": "deploy", "topic": "port",
                                                               "include_candidates": True}))
                after = _data(await session.call_tool("as_of", {"subject": "lin", "topic": "home_address",
                                                                "valid_at": "2026-10-05T00:00:00Z"}))
                return dict(tools=tools, r1=r1, r2=r2, now=now, before=before, why=why, hist=hist, bad=bad,
                            gone=gone, after=after, ctx=ctx, cand=cand)

    out = anyio.run(session_run)
    try:
        assert {"remember", "set_fact", "revoke", "as_of", "why", "history", "context", "forget"} <= out["tools"]
        assert all("tenant" not in t for t in out["tools"])
        assert out["r1"]["facts"] and out["r2"]["fact"]
        # the user's words as the agent relayed them: the user's statement, marked as relayed (a
        # field: the message keeps the id it was given)
        assert out["now"]["value"] == "河湾路" and out["now"]["source"] == "m2" and out["now"]["relayed_by"] == "claude"
        assert [w.split(":")[0] for w in out["now"]["warnings"]] == ["relayed"]
        assert out["before"]["value"] is None
        assert out["why"]["source"] == "m2" and out["why"]["relayed_by"] == "claude"
        assert out["why"]["warnings"] == ["relayed: the user's words as agent claude passed them on, "
                                          "not a message the user sent"]
        assert out["why"]["text"]["note"].startswith("data from a source")
        # set_fact is the agent's suggestion: an L2 candidate by "claude", invisible by default
        assert out["r2"]["status"] == "candidate" and out["r2"]["author"] == "claude"
        assert out["hist"]["entries"] == []
        assert out["cand"]["value"] == "8000" and "candidate: an unconfirmed candidate, not a fact until confirmed (asserted by claude)" in out["cand"]["warnings"]
        assert out["bad"]["isError"] and "ValidationError: not an ISO 8601 time" in out["bad"]["error"]
        first = out["ctx"]["items"][0]
        assert (first["topic"], first["value"], first["source"], first["relayed_by"]) == \
            ("home_address", "河湾路", "m2", "claude")
        assert any(w.startswith("relayed:") for w in first["warnings"])
        assert '- lin home address = "河湾路" · since 2026-09-20' in out["ctx"]["text"] \
            and "m2 · relayed by agent claude" in out["ctx"]["text"] \
            and out["ctx"]["ledger_version"] >= 2
        # forget files a request and holds the content back at once; nothing is erased yet
        assert out["gone"]["request"].startswith("er-") and out["gone"]["asked_by"] == "claude"
        assert out["gone"]["would_remove"]["facts"] and out["after"]["value"] is None
        # the server wrote to its own tenant only, every event as "claude"
        with GraphMem(neo4j_target.settings, tenant=tenant, install_schema=False, actor="lin") as mem:
            events = list(mem.events())
            assert {e["actor"] for e in events} == {"claude"} and "erase" not in {e["op"] for e in events}
            assert mem.as_of("deploy", "port", include_candidates=True).value == "8000"
            assert mem.as_of("lin", "home_address", valid_at="2026-10-05", known_at="2026-09-19").value == "河湾路"
            done = mem.confirm_erase(out["gone"]["request"], reason="lin confirmed")
            assert done["confirmed_by"] == "lin" and done["asked_by"] == "claude"
            assert "河湾路" not in json.dumps(list(mem.events()), ensure_ascii=False, default=str)
            assert mem.for_tenant("default").as_of("deploy", "port", known_at="2000-01-01").value is None
    finally:
        with GraphMem(neo4j_target.settings, tenant=tenant, install_schema=False) as mem:
            mem.drop_tenant()
