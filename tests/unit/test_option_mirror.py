"""The CLI and the MCP server mirror the client's keywords, not only its verbs (no database).

For every public client method with a command, the command's arguments and options are the
method's parameters by name (and default); for every MCP tool, its arguments are those of the
method it wraps.
The only differences allowed are the ones graphmem.interfaces.cli.mirror and
graphmem.interfaces.mcp_mirror list with a reason, and every listed difference must still be one
(a stale entry fails too). Signatures are read by introspection, so a keyword added to the client
without its option (or its tool argument, or an entry saying why not) fails here.
"""

from __future__ import annotations

import inspect

import pytest
import typer.main

from graphmem import GraphMem, WorkingMemory
from graphmem.interfaces.cli import app
from graphmem.interfaces.cli.mirror import (CLIENT_OPTIONS, CONNECTION, FORWARDS, NOT_COMMANDS, OPTION_DIFFERENCES,
                                            OWNER_PARAMETERS, command_for, differences)
from graphmem.interfaces.mcp_mirror import ARGUMENT_DIFFERENCES, PRINCIPALS, TOOLS
from graphmem.interfaces.mcp_mirror import differences as tool_differences
from graphmem.interfaces.mcp_search import SearchTools
from graphmem.interfaces.mcp_server import _StoreTools
from graphmem.interfaces.mcp_working import WorkingTools
from graphmem.playbooks.faces import Playbooks

OWNERS = {"GraphMem": GraphMem, "Playbooks": Playbooks, "WorkingMemory": WorkingMemory}
ROOT = typer.main.get_command(app)


def keywords(method: str) -> set[str]:
    """The parameter names of ``method`` ("Owner.name"); a ``**kw`` that FORWARDS names is resolved."""
    owner, name = method.split(".")
    params = inspect.signature(getattr(OWNERS[owner], name)).parameters.values()
    out = {p.name for p in params if p.name != "self" and p.kind is not inspect.Parameter.VAR_KEYWORD}
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        assert method in FORWARDS, f"{method} takes **kw: say in cli.mirror.FORWARDS whose keywords they are"
        target, own = FORWARDS[method]
        out |= keywords(target) - set(own)
    return out


def _command(path: str):
    cmd = ROOT
    for word in path.split():
        cmd = cmd.get_command(None, word)
    return cmd


def _mirrored() -> list[tuple[str, str]]:
    """(method, command) for every public method whose command is a command, not a group."""
    out = []
    for owner, cls in OWNERS.items():
        for name in (n for n in dir(cls) if not n.startswith("_")):
            path = command_for(owner, name)
            if path is None or isinstance(inspect.getattr_static(cls, name), property):
                continue
            if not hasattr(_command(path), "list_commands"):
                out.append((f"{owner}.{name}", path))
    return out


MIRRORED = _mirrored()


def test_the_mirror_covers_the_commands_that_take_options():
    assert len(MIRRORED) > 60 and ("GraphMem.context", "context") in MIRRORED


@pytest.mark.parametrize("method, path", MIRRORED, ids=[m for m, _ in MIRRORED])
def test_every_command_takes_its_methods_keywords(method, path):
    owner = method.split(".")[0]
    kws = keywords(method)
    params = {p.name for p in _command(path).params if not getattr(p, "hidden", False)}
    left_out, added = differences(method)
    free = set(CONNECTION) | set(CLIENT_OPTIONS) | set(OWNER_PARAMETERS.get(owner, ()))
    assert not kws - params - left_out, f"graphmem {path} lacks options for {method}'s keywords"
    assert not params - kws - added - free, f"graphmem {path} has options that are no keyword of {method}"
    assert left_out <= kws - params, f"cli.mirror lists keywords of {method} that graphmem {path} has, or that " \
                                     f"{method} does not take: {sorted(left_out - (kws - params))}"
    assert added <= params - kws, f"cli.mirror lists options of graphmem {path} it lacks, or that are keywords: " \
                                  f"{sorted(added - (params - kws))}"


def _defaults(method: str) -> dict[str, object]:
    """The keywords of ``method`` that have a default, with it (a forwarded **kw's too)."""
    owner, name = method.split(".")
    params = dict(inspect.signature(getattr(OWNERS[owner], name)).parameters)
    if method in FORWARDS:
        target_owner, target = FORWARDS[method][0].split(".")
        params = {**inspect.signature(getattr(OWNERS[target_owner], target)).parameters, **params}
    return {n: p.default for n, p in params.items() if p.default is not inspect.Parameter.empty}


@pytest.mark.parametrize("method, path", MIRRORED, ids=[m for m, _ in MIRRORED])
def test_every_option_defaults_to_its_keywords_default(method, path):
    """An option's default is its keyword's, or None: the command then leaves the keyword out and
    the client's default holds (mypy checks that a None never reaches a keyword that refuses it)."""
    defaults = _defaults(method)
    differ = {p.name: p.default for p in _command(path).params if p.name in defaults
              and (p.default if p.default != [] else None) not in (None, defaults[p.name])}
    assert not differ, f"graphmem {path}'s defaults differ from {method}'s: {differ}"


def test_the_option_differences_name_real_methods_and_say_why():
    for method, diffs in OPTION_DIFFERENCES.items():
        owner, name = method.split(".")
        assert hasattr(OWNERS[owner], name) and method not in NOT_COMMANDS, method
        for names, why in diffs.items():
            assert why.strip() and all(n[0] in "+-" for n in names.split()), (method, names)
    assert sum(len(d) for d in OPTION_DIFFERENCES.values()) <= 20, "keep the table of differences short"


TOOLSETS = (_StoreTools, WorkingTools, SearchTools)
TOOL_METHODS = {tool: getattr(ts, tool) for ts in TOOLSETS for tool in ts.TOOLS}


def test_every_tool_names_the_method_it_wraps():
    assert set(TOOLS) == set(TOOL_METHODS)
    assert set(ARGUMENT_DIFFERENCES) <= set(TOOLS)


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_every_tool_takes_its_methods_keywords(tool):
    method = TOOLS[tool]
    kws = keywords(method)
    args = {p.name for p in inspect.signature(TOOL_METHODS[tool]).parameters.values() if p.name != "self"}
    left_out, added, defaults_differ = tool_differences(tool)
    free = set(OWNER_PARAMETERS.get(method.split(".")[0], ()))
    assert not kws - args - left_out - set(PRINCIPALS), f"tool {tool} lacks arguments for {method}'s keywords"
    assert not args - kws - added - free, f"tool {tool} has arguments that are no keyword of {method}"
    assert left_out <= kws - args, f"mcp_mirror lists keywords of {method} that {tool} takes, or that " \
                                   f"{method} does not take: {sorted(left_out - (kws - args))}"
    assert added <= args - kws, f"mcp_mirror lists arguments of {tool} it lacks: {sorted(added - (args - kws))}"
    defaults = _defaults(method)
    differ = {p.name for p in inspect.signature(TOOL_METHODS[tool]).parameters.values()
              if p.name in defaults and p.default is not inspect.Parameter.empty and p.default != defaults[p.name]}
    assert differ == defaults_differ, f"tool {tool}'s defaults that differ from {method}'s: {sorted(differ)}"


def test_no_tool_takes_a_principal_and_each_principal_is_a_keyword():
    for tool, fn in TOOL_METHODS.items():
        taken = set(inspect.signature(fn).parameters) & set(PRINCIPALS)
        assert not taken, f"tool {tool} lets the model choose {sorted(taken)}"
    every = set().union(*(keywords(m) for m in TOOLS.values()))
    assert set(PRINCIPALS) <= every, sorted(set(PRINCIPALS) - every)
