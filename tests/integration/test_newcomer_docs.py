"""What a newcomer copies from the docs works as written: docs/mcp.md's client configuration
(the JSON an MCP client reads) starts a server that answers a remember and a search, and the
LangChain history the README names is importable from where it says."""

from __future__ import annotations

import json
import re
import sys
import uuid
from pathlib import Path

import anyio

from test_mcp import _data

ROOT = Path(__file__).resolve().parents[2]
EXE = str(Path(sys.executable).parent / "graphmem")


def test_the_mcp_client_configuration_runs_as_written(neo4j_target):
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    page = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    config = json.loads(re.search(r"```json\n(.*?)```", page, re.S).group(1))
    server = config["mcpServers"]["graphmem"]
    assert server["command"] == "graphmem" and server["args"][:1] == ["mcp"]
    tenant = f"newcomer-{uuid.uuid4().hex[:8]}"
    args = list(server["args"])
    args[args.index("--tenant") + 1] = tenant  # a fresh tenant instead of 'acme'
    settings = neo4j_target.settings
    env = dict(server["env"], NEO4J_URI=settings.uri)  # the keys as written, the test server's values
    env["NEO4J_PASSWORD"] = settings.password.get_secret_value() if settings.password else ""
    if settings.database:
        env["NEO4J_DATABASE"] = settings.database
    assert set(server["env"]) <= set(env)
    # "If graphmem is not on the client's PATH, give the full path of the executable"
    params = StdioServerParameters(command=EXE, args=args, env=env)

    async def run() -> tuple[dict, dict]:
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                said = _data(await session.call_tool("remember", {"text": "I live in Berlin.", "said_by": "user"}))
                found = _data(await session.call_tool("search", {"query": "where does lin live?"}))
                return said, found

    said, found = anyio.run(run)
    try:
        assert said.get("facts") or said.get("drawn"), said
        assert "Berlin" in json.dumps(found, ensure_ascii=False)
    finally:
        from graphmem import GraphMem

        with GraphMem(settings, tenant=tenant, install_schema=False) as mem:
            mem.drop_tenant()


def test_the_langchain_history_is_where_the_readme_says():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "GraphMemChatMessageHistory" in readme and "graphmem.interfaces.langchain" in readme
    from graphmem.interfaces.langchain import GraphMemChatMessageHistory
    from langchain_core.chat_history import BaseChatMessageHistory

    assert issubclass(GraphMemChatMessageHistory, BaseChatMessageHistory)
