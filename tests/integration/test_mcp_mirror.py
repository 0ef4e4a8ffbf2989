"""MCP read tools take the keywords of the methods they mirror (tests/unit/test_option_mirror.py
checks the names), over stdio with the official SDK's client: each argument reaches its keyword —
include_candidates on why/history, session on as_of, known_at and limit on candidates."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import anyio

from graphmem import GraphMem

from test_mcp import _data, _env


def test_read_tools_pass_their_keywords_on(neo4j_target):
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    tenant = f"mcpm-{uuid.uuid4().hex[:8]}"
    settings = neo4j_target.settings
    exe = str(Path(sys.executable).parent / "graphmem")
    params = StdioServerParameters(command=exe, args=["mcp", "--tenant", tenant, "--agent", "claude"],
                                   env=_env(settings))
    with GraphMem(settings, tenant=tenant) as mem:
        mem.set("lin", "office", "B2", status="candidate", recorded_at="2026-01-01T00:00:00Z")  # record time: first
        mem.set("deploy", "port", "9090", authority="L0", session="task-1")  # only its session sees it
        mem.set("lin", "desk", "D4", status="candidate")

    async def run() -> dict:
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()

                async def call(tool: str, **args: object) -> dict:
                    return _data(await session.call_tool(tool, args))
                return {
                    "why": await call("why", subject="lin", topic="office"),
                    "why_c": await call("why", subject="lin", topic="office", include_candidates=True),
                    "history_c": await call("history", subject="lin", topic="office", include_candidates=True),
                    "as_of": await call("as_of", subject="deploy", topic="port"),
                    "as_of_s": await call("as_of", subject="deploy", topic="port", session="task-1"),
                    "cands": await call("candidates", subject="lin"),
                    "cands_then": await call("candidates", subject="lin", known_at="2026-06-01T00:00:00Z"),
                    "cands_one": await call("candidates", subject="lin", limit=1),
                }

    try:
        out = anyio.run(run)
        assert out["why"].get("value") is None and out["why_c"]["value"] == "B2"
        assert [e["value"] for e in out["history_c"]["entries"]] == ["B2"]
        assert out["as_of"]["value"] is None and out["as_of_s"]["value"] == "9090"
        assert sorted(c["value"] for c in out["cands"]["candidates"]) == ["B2", "D4"]
        assert [c["value"] for c in out["cands_then"]["candidates"]] == ["B2"]  # D4 was not known yet
        assert len(out["cands_one"]["candidates"]) == 1
    finally:
        with GraphMem(settings, tenant=tenant, install_schema=False) as mem:
            mem.drop_tenant()
