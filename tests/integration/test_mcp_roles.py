"""MCP authorship and usability over stdio (issue #45 item 3, #44 item 5): the model's words are
the model's unless it says otherwise, and then they are marked as relayed; set_fact is the
agent's assertion whatever source it cites; the first natural call works; every parameter is
described; one error convention; malformed JSON-RPC lines get an answer."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

import anyio

from graphmem import GraphMem
from test_mcp import _data, _env

EXE = str(Path(sys.executable).parent / "graphmem")


def _params(tenant, settings, *extra):
    from mcp.client.stdio import StdioServerParameters
    return StdioServerParameters(command=EXE, args=["mcp", "--tenant", tenant, "--user", "lin", "--agent", "claude",
                                                    *extra], env=_env(settings))


def test_authorship_over_stdio(neo4j_target, driver):
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    tenant = f"mcpr-{uuid.uuid4().hex[:8]}"
    mem = GraphMem(neo4j_target.settings, tenant=tenant, driver=driver)
    # an old email by someone else, which the model will cite
    mem.add_source("email-1", kind="email", at="2025-01-02T00:00:00Z", author="boss@example.com",
                   text="The deploy port is 7000.")

    async def run() -> dict:
        async with stdio_client(_params(tenant, neo4j_target.settings)) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                call = session.call_tool
                tools = (await session.list_tools()).tools
                first = _data(await call("remember", {"text": "Noted, vegetarian."}))  # the first natural call
                retry = _data(await call("remember", {"text": "Noted, vegetarian."}))
                mine = _data(await call("remember", {"text": "I live in Berlin.", "session": "s1"}))
                said = _data(await call("remember", {"text": "I'm vegetarian.", "said_by": "user",
                                                     "at": "2026-09-18T10:00:00Z"}))
                diet = _data(await call("as_of", {"subject": "lin", "topic": "diet"}))
                listed = _data(await call("facts", {"subject": "lin"}))
                ctx = _data(await call("context", {"task": "what does lin eat? diet", "subject": "lin"}))
                cited = _data(await call("set_fact", {"subject": "deploy", "topic": "port", "value": "7000",
                                                      "source": "email-1"}))
                cand = _data(await call("as_of", {"subject": "deploy", "topic": "port", "include_candidates": True}))
                rows = _data(await call("remember_messages", {"session": "s2", "messages": [
                    {"role": "user", "name": "mei", "content": "I live in Paris."},
                    {"role": "assistant", "content": [{"type": "text", "text": "Noted, you live in Paris."}],
                     "tool_calls": []}]}))
                again = _data(await call("remember_messages", {"session": "s2", "messages": [
                    {"role": "user", "name": "mei", "content": "I live in Paris."},
                    {"role": "assistant", "content": [{"type": "text", "text": "Noted, you live in Paris."}]}]}))
                return dict(tools=tools, first=first, retry=retry, mine=mine, said=said, diet=diet, listed=listed, ctx=ctx,
                            cited=cited, cand=cand, rows=rows, again=again)

    try:
        out = anyio.run(run)
        # every parameter of every tool carries a description
        undescribed = [f"{t.name}.{p}" for t in out["tools"]
                       for p, schema in t.input_schema["properties"].items() if not schema.get("description")]
        assert not undescribed, undescribed
        # remember needs no message_id; by default the words are the agent's, never a fact about it
        assert out["first"]["speaker"] == "claude" and out["first"]["message_id"].startswith("mcp-")
        assert out["retry"]["duplicate"] is True and out["retry"]["message_id"] == out["first"]["message_id"]
        assert out["first"]["facts"] == [] and out["mine"]["facts"] == []
        assert not mem.as_of("claude", "diet", include_candidates=True).holds
        assert not mem.as_of("claude", "home_city", include_candidates=True).holds
        # the user's words, relayed: the user's statement, marked in answers and context
        assert out["said"]["speaker"] == "lin" and out["said"]["relayed_by"] == "claude"
        assert out["diet"]["value"] == "vegetarian" and out["diet"]["source"] == out["said"]["message_id"]
        assert not out["said"]["message_id"].startswith("relayed~") and out["diet"]["relayed_by"] == "claude"
        assert any(w.startswith("relayed: the user's words as agent claude passed them on") for w in out["diet"]["warnings"])
        item = next(i for i in out["ctx"]["items"] if i["topic"] == "diet")
        assert item["relayed_by"] == "claude" and any(w.startswith("relayed:") for w in item["warnings"])
        assert "relayed by agent claude" in out["ctx"]["text"]
        listed = next(m for m in out["listed"]["facts"] if m["topic"] == "diet")
        assert listed["relayed_by"] == "claude" and any(w.startswith("relayed:") for w in listed["warnings"])
        # the agent's own words are not relayed: nothing drawn from them carries the mark
        assert out["mine"]["relayed_by"] is None
        # set_fact citing someone's email: the agent's candidate, dated now, not the email's author or time
        assert out["cited"]["author"] == "claude" and out["cited"]["cites"] == "email-1"
        assert out["cand"]["value"] == "7000" and out["cand"]["source"] == out["cited"]["source"] != "email-1"
        assert any("asserted by claude" in w for w in out["cand"]["warnings"])
        assert not any("boss@example.com" in w for w in out["cand"]["warnings"])
        since = datetime.fromisoformat(out["cand"]["valid_from"])
        assert since > datetime.now(timezone.utc) - timedelta(hours=1)  # not back-dated to 2025-01-02
        answer = mem.as_of("deploy", "port", include_candidates=True)
        assert (answer.author, answer.authority, answer.status) == ("claude", "L2", "candidate")
        # chat rows: the row's name is not read (the server knows its user); the assistant's row is the agent's
        speakers = [m["speaker"] for m in out["rows"]["messages"]]
        assert speakers == ["lin", "claude"] and not out["rows"]["messages"][0]["message_id"].startswith("relayed~")
        assert [m["relayed_by"] for m in out["rows"]["messages"]] == ["claude", None]
        assert all(m["duplicate"] for m in out["again"]["messages"])
        assert mem.as_of("lin", "home_city").value == "Paris" and not mem.as_of("mei", "home_city").holds
        assert mem.as_of("lin", "home_city").relayed_by == "claude"
    finally:
        mem.drop_tenant()


def test_one_error_convention(neo4j_target):
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    tenant = f"mcpr-{uuid.uuid4().hex[:8]}"

    async def run() -> dict:
        async with stdio_client(_params(tenant, neo4j_target.settings)) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                call = session.call_tool
                return dict(
                    date=await call("as_of", {"subject": "lin", "topic": "x", "valid_at": "soon"}),
                    typed=await call("episodes", {"limit": "many"}),
                    missing=await call("as_of", {"subject": "lin"}),
                    closed=await call("working_use", {"session": "nope", "item_ids": ["x"]}),
                    unknown=await call("no_such_tool", {}))

    try:
        out = anyio.run(run)
        for name, result in out.items():
            assert result.is_error, name  # every refusal: isError true, never a result with an error field
            text = result.content[0].text
            assert text.startswith("Error executing tool "), (name, text)
            assert "pydantic.dev" not in text and "For further information" not in text, (name, text)
        assert "ValidationError: not an ISO 8601 time" in out["date"].content[0].text
        assert "ValidationError: limit:" in out["typed"].content[0].text
        assert "ValidationError: topic:" in out["missing"].content[0].text
        assert out["unknown"].content[0].text == "Error executing tool no_such_tool: NotFoundError: no tool 'no_such_tool'"
    finally:
        with GraphMem(neo4j_target.settings, tenant=tenant, install_schema=False) as mem:
            mem.drop_tenant()


def test_malformed_lines_get_a_json_rpc_error(neo4j_target):
    tenant = f"mcpr-{uuid.uuid4().hex[:8]}"
    lines = ["this is not json", '{"jsonrpc": "2.0", "id": 7, "method": 12}',
             json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})]
    # stdin stays open until the three answers are read: a server whose input ends may stop before
    # it answers the last request, which is not what this test is about
    proc = subprocess.Popen([EXE, "mcp", "--tenant", tenant, "--user", "lin"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=_env(neo4j_target.settings))
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("\n".join(lines) + "\n")
        proc.stdin.flush()
        answers = []
        deadline = time.monotonic() + 120
        while len(answers) < 3 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            if line.strip():
                answers.append(json.loads(line))
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert answers[0] == {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
    assert answers[1]["error"]["code"] == -32600 and answers[1]["id"] == 7
    assert len(answers) == 3 and answers[2]["id"] == 1  # the server carries on after them


def test_an_old_relayed_id_is_still_marked_over_stdio(neo4j_target, driver):
    """A store written when the MCP server marked the relay in the id (``relayed~claude~m2``): the
    answers over MCP still carry relayed_by and the warning, and the id is shown as stored."""
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    tenant = f"mcpr-{uuid.uuid4().hex[:8]}"
    mem = GraphMem(neo4j_target.settings, tenant=tenant, driver=driver)
    mem.ingest("我9月20日起搬到河湾路。", id="relayed~claude~m2", speaker="lin", at="2026-09-18T10:00:00Z",
               actor="claude")
    ask = {"subject": "lin", "topic": "home_address", "valid_at": "2026-10-05T00:00:00Z"}

    async def run() -> dict:
        async with stdio_client(_params(tenant, neo4j_target.settings)) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                call = session.call_tool
                return dict(now=_data(await call("as_of", ask)), why=_data(await call("why", ask)),
                            ctx=_data(await call("context", {"task": "where does lin live? home address",
                                                             "subject": "lin", "valid_at": ask["valid_at"]})))

    try:
        out = anyio.run(run)
        assert out["now"]["source"] == "relayed~claude~m2" and out["now"]["relayed_by"] == "claude"
        assert any(w.startswith("relayed: the user's words as agent claude") for w in out["now"]["warnings"])
        assert out["why"]["relayed_by"] == "claude" and out["why"]["warnings"][0].startswith("relayed:")
        item = next(i for i in out["ctx"]["items"] if i["topic"] == "home_address")
        assert item["relayed_by"] == "claude" and "relayed by agent claude" in out["ctx"]["text"]
    finally:
        mem.drop_tenant()
