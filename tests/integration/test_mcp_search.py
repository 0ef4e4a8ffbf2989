"""The MCP tools search, facts and candidates over stdio, driven by the official SDK's client
(issue #44): ranked memories with source text fenced as quoted data, a subject's facts, and the
agent's own suggestions listed as candidates — on the server's tenant only."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import anyio

from graphmem import GraphMem

from test_mcp import _data, _env


def test_search_facts_candidates_over_stdio(neo4j_target):
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    tenant = f"mcps-{uuid.uuid4().hex[:8]}"
    settings = neo4j_target.settings
    env = _env(settings)
    exe = str(Path(sys.executable).parent / "graphmem")
    params = StdioServerParameters(command=exe, args=["mcp", "--tenant", tenant, "--user", "lin", "--agent", "claude"],
                                   env=env)

    with GraphMem(settings, tenant=tenant) as mem:  # lin's own words, written before the agent comes
        mem.ingest("我9月20日起搬到河湾路。", id="m2", speaker="lin", at="2026-09-18T10:00:00Z")

    async def run() -> dict:
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = {t.name for t in (await session.list_tools()).tools}
                await session.call_tool("set_fact", {"subject": "lin", "topic": "office", "value": "B2"})
                found = _data(await session.call_tool("search", {"query": "where does lin live? 地址",
                                                                 "subject": "lin", "valid_at": "2026-10-05"}))
                facts = _data(await session.call_tool("facts", {"subject": "lin", "include_candidates": True}))
                cands = _data(await session.call_tool("candidates", {}))
                bad = _data(await session.call_tool("search", {"query": "  "}))
                return dict(tools=tools, found=found, facts=facts, cands=cands, bad=bad)

    try:
        out = anyio.run(run)
        assert {"search", "facts", "candidates"} <= out["tools"]
        top = out["found"]["memories"][0]
        assert (top["kind"], top["topic"], top["value"]) == ("fact", "home_address", "河湾路")
        assert top["source"]["id"] == "m2" and top["source"]["text"]["note"].startswith("data from a source")
        assert top["score"] > 0 and out["found"]["ledger_version"] >= 2
        assert [(f["kind"], f["topic"], f["value"]) for f in out["facts"]["facts"]] == [
            ("fact", "home_address", "河湾路"), ("candidate", "office", "B2")]
        cand = out["cands"]["candidates"]
        assert len(cand) == 1 and cand[0]["value"] == "B2" and any("claude" in w for w in cand[0]["warnings"])
        assert "ValidationError: search needs the query" in out["bad"]["error"]
    finally:
        with GraphMem(settings, tenant=tenant, install_schema=False) as mem:
            mem.drop_tenant()
