"""The console script's exit: ``entry()`` skips the interpreter's teardown (a tenth of a CLI read
here) but must keep what a shell relies on — all the output, the exit status, the exit handlers."""

from __future__ import annotations

import subprocess
import sys

import pytest

from graphmem.interfaces.cli import _exit_status

RUN = """import atexit, sys
from graphmem.interfaces.cli import entry
atexit.register(lambda: print("exit handler ran"))
sys.argv = ["graphmem", *sys.argv[1:]]
entry()
print("not reached")
"""


def _entry(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, text=True, timeout=60)


def test_a_command_that_succeeds_prints_everything_runs_the_handlers_and_exits_0() -> None:
    out = _entry("--help")
    assert out.returncode == 0, out.stderr
    assert "Usage: graphmem" in out.stdout and "as-of" in out.stdout
    assert out.stdout.rstrip().endswith("exit handler ran") and "not reached" not in out.stdout


def test_a_usage_error_keeps_its_status_and_message() -> None:
    out = _entry("no-such-verb")
    assert out.returncode == 2
    assert "No such command" in out.stderr and "exit handler ran" in out.stdout


@pytest.mark.parametrize(("code", "status"), [(None, 0), (0, 0), (1, 1), (2, 2), (True, 1), ("boom", 1)])
def test_exit_status_reads_system_exit_codes_as_python_does(code: object, status: int) -> None:
    assert _exit_status(code) == status
