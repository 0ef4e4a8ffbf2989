"""Optional parts are extras, and a missing one is one line naming the extra to install.

The packages are installed here (make install pulls every extra), so each test hides one with a
meta-path finder in a fresh interpreter: exactly what a user without the extra would see."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from graphmem.core.errors import ConfigurationError, MissingExtraError
from graphmem.core.extras import EXTRAS, missing, require

ROOT = Path(__file__).resolve().parents[2]

HIDE = '''
import sys
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name == {top!r} or name.startswith({top!r} + "."):
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Hide())
'''


def _run_without(top: str, code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", HIDE.format(top=top) + code], capture_output=True, text=True,
                          timeout=120)


def test_the_cli_without_typer_says_which_extra():
    proc = _run_without("typer", "from graphmem.interfaces.cli import main\nmain(['as-of', 'lin', 'port', '--json'])")
    assert proc.returncode == 1
    assert proc.stderr == "Error: graphmem's CLI needs the `cli` extra: pip install 'graphmem[cli]'\n"
    assert proc.stdout == ""


def test_mcp_without_the_sdk_says_which_extra():
    proc = _run_without("mcp", "from graphmem.interfaces.cli import main\nmain(['mcp', '--tenant', 't'])")
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.strip() == "Error: graphmem's MCP server needs the `mcp` extra: pip install 'graphmem[mcp]'"


def test_the_minilm_embedder_without_sentence_transformers_says_which_extra():
    proc = _run_without("sentence_transformers", "from graphmem.recall.embed import embedder_from_env\n"
                                                 "from graphmem.core.errors import MissingExtraError\n"
                                                 "try:\n    embedder_from_env('minilm')\n"
                                                 "except MissingExtraError as e:\n    print(e.extra, '|', e)\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ("vectors | the 'minilm' embedder needs the `vectors` extra: pip install "
                                   "'graphmem[vectors]' (pulls torch), or use GRAPHMEM_EMBEDDER=hashing")


def test_the_library_imports_without_the_cli_extra():
    proc = _run_without("typer", "import graphmem, graphmem.store.client, graphmem.store.aio, graphmem.core.config\n"
                                 "print(graphmem.GraphMem.__name__)")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "GraphMem"


def test_the_error_is_typed_both_ways():
    err = missing("bench")
    assert isinstance(err, ConfigurationError) and isinstance(err, ImportError)
    assert (err.extra, err.module, err.name) == ("bench", "matplotlib", "matplotlib")
    assert str(err) == "graphmem bench's plots and BM25 baseline needs the `bench` extra: pip install 'graphmem[bench]'"
    with pytest.raises(MissingExtraError, match=r"pip install 'graphmem\[mcp\]'"):
        _raise_missing()


def _raise_missing() -> None:
    raise missing("mcp")


def test_a_present_extra_is_imported():
    assert require("cli", "typer").__name__ == "typer"


def test_every_extra_is_in_pyproject_and_dev_pulls_them():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    assert set(EXTRAS) <= set(extras), set(EXTRAS) - set(extras)
    dev = " ".join(extras["dev"])
    for name in set(extras) - {"dev", "vectors", "english"}:  # vectors: torch (GB); english: listed in dev
        assert name in dev.split("[")[1].split("]")[0].split(","), name
    assert not any(d.startswith(("typer", "rich", "mcp")) for d in project["dependencies"])
