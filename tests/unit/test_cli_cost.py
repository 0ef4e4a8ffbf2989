"""What one `graphmem as-of` call pays for, checked without a clock (docs/cli.md, "A call pays for
its command only"): main() turns only the command it runs into a click command, and what that
command imports before it connects leaves out the modules a read does not use. The wall time
itself is a benchmark, not a test: `graphmem bench cli --runs 10 --breakdown`."""

from __future__ import annotations

import json
import subprocess
import sys

import typer.main

from graphmem.interfaces.cli import COMMANDS, build
from tests.read_modules import unneeded


def test_main_builds_only_the_command_it_runs():
    assert sorted(typer.main.get_command(build((COMMANDS["as-of"],), only="as-of")).list_commands(None)) == ["as-of"]
    # a hidden old spelling brings its command along, under both names
    names = typer.main.get_command(build((COMMANDS["events-page"],), only="events-page")).list_commands(None)
    assert sorted(names) == ["events", "events-page"]
    # a module of groups is registered whole
    assert "playbook" in typer.main.get_command(build(("playbook",), only="playbook")).list_commands(None)


def test_what_as_of_imports_before_it_connects():
    """The steps of main() for `as-of` up to the connection: the reads module with its one
    command, the driver without numpy, the client, the settings from the environment."""
    code = ("from graphmem.interfaces.cli import build\nimport typer.main\n"
            "typer.main.get_command(build(('reads',), only='as-of'))\n"
            "from graphmem.interfaces.cli.common import Opts, import_driver_lean\nimport_driver_lean()\n"
            "import graphmem.store.client\nOpts().settings()\n"
            "import json, sys\nprint(json.dumps(sorted(m for m in sys.modules if sys.modules[m] is not None)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout.splitlines()[-1]))
    assert not unneeded(loaded), unneeded(loaded)
    assert {"neo4j", "graphmem.store.client", "graphmem.interfaces.cli.reads"} <= loaded
