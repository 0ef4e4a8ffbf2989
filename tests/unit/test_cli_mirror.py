"""The CLI mirrors the client (no database): every public method of GraphMem, mem.playbooks and
mem.working(session) has a command (graphmem.interfaces.cli.mirror lists the few exceptions and renames),
every command's --help shows an example, main() loads the module that owns a command, and
importing the CLI (or what `graphmem as-of` imports) does not load the NLP stack."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import typer.main
from typer.testing import CliRunner

from graphmem import GraphMem, WorkingMemory
from graphmem.interfaces.cli import COMMANDS, MODULES, app, build
from graphmem.interfaces.cli.mirror import NOT_COMMANDS, RENAMED, command_for
from graphmem.playbooks.faces import Playbooks


def _tree(group, path=()):
    """Every visible command and group under ``group``, as word paths."""
    for name in group.list_commands(None):
        sub = group.get_command(None, name)
        if sub.hidden:
            continue
        yield (*path, name)
        if hasattr(sub, "list_commands"):
            yield from _tree(sub, (*path, name))


PATHS = sorted(_tree(typer.main.get_command(app)))


@pytest.mark.parametrize("cls", [GraphMem, Playbooks, WorkingMemory], ids=lambda c: c.__name__)
def test_every_public_client_method_has_a_command(cls):
    visible = {" ".join(p) for p in PATHS}
    missing = {}
    for name in (n for n in dir(cls) if not n.startswith("_")):
        cmd = command_for(cls.__name__, name)
        if cmd is not None and cmd not in visible:
            missing[f"{cls.__name__}.{name}"] = cmd
    assert not missing, f"client methods without their command: {missing}"


def test_the_exceptions_name_real_members():
    owners = {"GraphMem": GraphMem, "Playbooks": Playbooks, "WorkingMemory": WorkingMemory}
    for key in [*NOT_COMMANDS, *RENAMED]:
        owner, name = key.split(".")
        assert hasattr(owners[owner], name), f"{key} is listed in graphmem.interfaces.cli.mirror but does not exist"
    assert len(NOT_COMMANDS) <= 5, "keep the list of methods without a command small"


@pytest.mark.parametrize("path", PATHS, ids=" ".join)
def test_every_command_has_help_with_an_example(path):
    out = CliRunner().invoke(app, [*path, "--help"])
    assert out.exit_code == 0, out.output
    assert "Example:" in out.output, f"graphmem {' '.join(path)} --help shows no example"


def test_the_root_help_shows_an_example():
    out = CliRunner().invoke(app, ["--help"])
    assert out.exit_code == 0 and "Example:" in out.output


def test_the_old_spellings_still_work():
    """Hidden aliases keep scripts working: --budget, playbook draft / reject, topic, forget."""
    root = typer.main.get_command(app)
    for path in (["topic"], ["forget"], ["events-page"], ["playbook", "draft"], ["playbook", "reject"]):
        group = root
        for word in path:
            group = group.get_command(None, word)
            assert group is not None, path
    for path in (["context"], ["working", "context"], ["working", "add"]):
        cmd = root
        for word in path:
            cmd = cmd.get_command(None, word)
        assert {"--budget", "--budget-tokens"} <= {o for p in cmd.params for o in p.opts}


def test_main_loads_the_module_that_owns_each_command():
    top = {name for name in typer.main.get_command(app).list_commands(None)}
    assert set(COMMANDS) == top
    for module in MODULES:
        names = set(typer.main.get_command(build((module,))).list_commands(None))
        assert names == {n for n, m in COMMANDS.items() if m == module}, module


HEAVY = ("spacy", "wordllama", "numpy", "neomodel", "mcp", "torch", "sentence_transformers", "rich", "neo4j",
         "pydantic", "graphmem.extract", "graphmem.store.client", "graphmem.recall.recall")


def _loaded(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport json, sys; print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_importing_the_cli_loads_nothing_heavy():
    loaded = _loaded("import graphmem.interfaces.cli")
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_a_cli_read_loads_no_nlp_and_no_numpy():
    """What `graphmem as-of` imports: the driver (without its numpy hook) and the client, no more."""
    loaded = _loaded("from graphmem.interfaces.cli.common import import_driver_lean\nimport_driver_lean()\n"
                     "import graphmem.store.client\nimport graphmem.interfaces.cli.reads")
    heavy = {"spacy", "wordllama", "numpy", "neomodel", "mcp", "torch", "rich", "graphmem.extract", "graphmem.recall.recall"}
    assert not loaded & heavy, sorted(loaded & heavy)
    assert "neo4j" in loaded


def test_the_lean_driver_import_leaves_numpy_importable():
    loaded = _loaded("from graphmem.interfaces.cli.common import import_driver_lean\nimport_driver_lean()\nimport numpy")
    assert {"neo4j", "numpy"} <= loaded


@pytest.mark.parametrize("cls", [GraphMem, Playbooks, WorkingMemory], ids=lambda c: c.__name__)
def test_the_cli_page_lists_every_command_of_the_mirror(cls):
    """docs/cli.md's table is what a reader finds a command by: it names every mirrored method."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    prefix = {"GraphMem": "mem.", "Playbooks": "mem.playbooks.", "WorkingMemory": "mem.working(s)."}[cls.__name__]
    missing = [f"{prefix}{name} → graphmem {cmd}" for name in dir(cls) if not name.startswith("_")
               for cmd in [command_for(cls.__name__, name)] if cmd is not None
               and f"| `{prefix}{name}` | `graphmem {cmd}` |" not in page]
    assert not missing, f"docs/cli.md's table lacks: {missing}"
