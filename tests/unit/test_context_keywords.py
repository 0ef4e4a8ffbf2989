"""Issue #46 item 3 (part): ``mem.working(s).context`` declares the client's ``context`` keywords
(typed, no ``**kw``), and the two ``context`` commands declare their shared options once."""

from __future__ import annotations

import inspect
import typing

import typer.main

from graphmem import AsyncGraphMem, GraphMem, WorkingMemory
from graphmem.working.faces import AsyncWorkingMemory
from graphmem.interfaces.cli import app
from graphmem.interfaces.cli.recall import CONTEXT_OPTIONS, ContextKeywords

ROOT = typer.main.get_command(app)


def _params(fn: object) -> dict[str, inspect.Parameter]:
    return {n: p for n, p in inspect.signature(fn).parameters.items() if n != "self"}  # type: ignore[arg-type]


def test_working_context_takes_the_clients_keywords_but_the_session():
    for working, client in ((WorkingMemory, GraphMem), (AsyncWorkingMemory, AsyncGraphMem)):
        mine, theirs = _params(working.context), _params(client.context)
        assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in mine.values())
        assert set(mine) == set(theirs) - {"session"}
        assert {n: p.default for n, p in mine.items()} == {n: theirs[n].default for n in mine}
        assert all("Any" not in str(p.annotation) for p in mine.values())


def test_the_shared_options_are_the_keywords_and_both_commands_take_them():
    assert list(CONTEXT_OPTIONS) == list(typing.get_type_hints(ContextKeywords))
    client = _params(GraphMem.context)
    assert all(CONTEXT_OPTIONS[n][1].default == client[n].default for n in CONTEXT_OPTIONS)
    for path in (["context"], ["working", "context"]):
        cmd = ROOT
        for word in path:
            cmd = cmd.get_command(None, word)  # type: ignore[attr-defined]
        names = {p.name for p in cmd.params}
        assert set(CONTEXT_OPTIONS) | {"budget"} <= names, path
