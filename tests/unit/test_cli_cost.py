"""What one `graphmem as-of` call pays for, checked without a clock (docs/benchmarks.md, "A call pays for
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


def test_the_breakdown_counts_each_outermost_import_once():
    """`graphmem bench cli --breakdown` reads -X importtime: only imports after the probe started,
    only the outermost ones (a nested import is inside its importer's cumulative time)."""
    from graphmem.interfaces.cli.bench import import_seconds
    lines = ["import time: self [us] | cumulative | imported package",
             "import time:       100 |        100 | site",  # the interpreter's own: before the mark
             "graphmem-probe: start",
             "import time:      1000 |       1000 |   neo4j.time",
             "import time:      2000 |      30000 | neo4j",
             "import time:      3000 |      20000 | graphmem.store.client",
             "import time:       500 |       4000 | graphmem.interfaces.cli",
             "import time:       700 |        700 | encodings.idna"]
    assert import_seconds(lines) == {"neo4j": 0.03, "graphmem": 0.024, "other": 0.0007}
