"""The typed faces (graphmem/store/faces.py) are what graphmem.store.facegen writes from graphmem/store/surface/,
every public operation has a typed method on both clients with explicit keywords, a docstring with
an example and a concrete return type, and mypy --strict reads both faces as a user would."""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from graphmem import AsyncGraphMem, GraphMem
from graphmem.store import surface
from graphmem.store.facegen import FACES, operations, render


def test_faces_py_is_what_the_generator_writes():
    assert FACES.read_text(encoding="utf-8") == render(), (
        "graphmem/store/faces.py drifted from graphmem/store/surface/: run `python -m graphmem.store.facegen`")


def test_the_generator_refuses_an_untyped_operation():
    bad = 'from .ops import Plan\n__all__ = ["f"]\ndef f(mem, x: int) -> int:\n    """doc"""\n'
    with pytest.raises(ValueError, match="Plan"):
        operations(bad)
    bad = '__all__ = ["f"]\ndef f(mem, **kw: int) -> Plan[int]:\n    """doc"""\n'
    with pytest.raises(ValueError, match="\\*\\*kw"):
        operations(bad)


OPS = [op.name for op in operations()]


def test_every_surface_function_is_an_operation():
    public = [n for n in surface.__all__ if inspect.isfunction(getattr(surface, n))]
    assert OPS == public


@pytest.mark.parametrize("name", OPS)
def test_both_faces_have_the_operation_typed(name):
    fn = getattr(surface, name)
    ref = inspect.signature(fn)
    assert ref.return_annotation.startswith("Plan[")
    for cls in (GraphMem, AsyncGraphMem):
        method = inspect.unwrap(getattr(cls, name))  # through the tenant gate's wrapper
        sig = inspect.signature(method)
        assert list(sig.parameters)[1:] == list(ref.parameters)[1:], cls.__name__
        assert all(p.kind is not p.VAR_KEYWORD for p in sig.parameters.values())
        assert sig.return_annotation == ref.return_annotation[len("Plan["):-1]
        assert inspect.iscoroutinefunction(method) is (cls is AsyncGraphMem)
        assert method.__doc__ == fn.__doc__ or inspect.cleandoc(method.__doc__) == inspect.cleandoc(fn.__doc__)
    assert ">>> " in (fn.__doc__ or ""), f"surface.{name}'s docstring has no example"


def test_an_unknown_keyword_is_a_type_error_at_call_time():
    mem = GraphMem.__new__(GraphMem)  # no connection: the call fails before any plan runs
    mem.tenant = "t"
    with pytest.raises(TypeError, match="colour"):
        mem.set("deploy", "port", "8000", colour="blue")  # type: ignore[call-arg]


USAGE = '''
from __future__ import annotations

from graphmem import Answer, AsyncGraphMem, GraphMem, HistoryEntry, MemoryContext, WriteResult, Why


def sync_use(mem: GraphMem) -> str | None:
    w: WriteResult = mem.set("deploy", "port", "8000", valid_from="2024-03-01", authority="L0")
    ans: Answer = mem.as_of("deploy", "port", valid_at="2024-04-01")
    hist: list[HistoryEntry] = mem.history("deploy", "port")
    why: Why = mem.why("deploy", "port")
    ctx: MemoryContext = mem.context("which port?", subject="deploy", budget_tokens=800)
    n: int = mem.rebuild()
    values: list[str] = mem.history_values("deploy", "port")
    return ans.value


async def async_use(amem: AsyncGraphMem) -> str | None:
    w: WriteResult = await amem.revoke("deploy", "port", effective="2024-06-01")
    ans2: Answer = await amem.as_of("deploy", "port", known_at="2024-05-01")
    path: Answer = await amem.path("caroline", ["employer", "city"])
    values: list[str] = await amem.history_values("deploy", "port")
    return ans2.value
'''

WRONG = '''
from graphmem import Answer, AsyncGraphMem, GraphMem


def misuse(mem: GraphMem, amem: AsyncGraphMem) -> None:
    a: int = mem.as_of("deploy", "port")
    b: Answer = amem.as_of("deploy", "port")
    mem.set("deploy", "port", "8000", authority="L9")
    mem.as_of("deploy", "port", valid=None)
'''


def _mypy(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    f = tmp_path / "usage.py"
    f.write_text(textwrap.dedent(code), encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                           "--follow-imports=silent", "--cache-dir", str(root / ".mypy_cache"),
                           "--config-file", str(root / "pyproject.toml"), str(f)],
                          capture_output=True, text=True, cwd=root, timeout=600)


def test_mypy_strict_accepts_typed_use_of_both_faces(tmp_path):
    out = _mypy(tmp_path, USAGE)
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_strict_catches_misuse_of_both_faces(tmp_path):
    out = _mypy(tmp_path, WRONG)
    lines = [line for line in out.stdout.splitlines() if "usage.py" in line and ": error:" in line]
    assert len(lines) == 4, out.stdout
    assert "Coroutine" in out.stdout and "L9" in out.stdout and "valid" in out.stdout
