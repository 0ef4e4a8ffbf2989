"""The typed faces (graphmem/store/faces.py) are what graphmem.store.facegen writes from graphmem/store/surface/,
every public operation has a typed method on both clients with explicit keywords, a docstring with
an example and a concrete return type, and mypy --strict reads both faces as a user would. The same
holds for the objects the clients hand out: ``mem.playbooks`` and ``mem.working(session)`` have a sync
and an async face (graphmem/playbooks/faces.py, graphmem/working/faces.py) generated from their
operations (PlaybookPlans, WorkingPlans), and each client hands out its own."""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from graphmem import AsyncGraphMem, GraphMem
from graphmem.store import surface
from graphmem.playbooks.faces import AsyncPlaybooks, Playbooks
from graphmem.playbooks.playbooks import PlaybookPlans
from graphmem.store.facegen import FACES, SPECS, operations, render
from graphmem.working.faces import AsyncWorkingMemory, WorkingMemory
from graphmem.working.working import WorkingPlans


def test_faces_py_is_what_the_generator_writes():
    assert FACES.read_text(encoding="utf-8") == render(), (
        "graphmem/store/faces.py drifted from graphmem/store/surface/: run `python -m graphmem.store.facegen`")


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.package)
def test_every_generated_face_is_what_the_generator_writes(spec):
    assert spec.out.read_text(encoding="utf-8") == render(spec=spec), (
        f"{spec.out} drifted from what it is generated from: run `python -m graphmem.store.facegen`")


def test_the_generator_refuses_an_untyped_operation():
    bad = 'from .ops import Plan\n__all__ = ["f"]\ndef f(mem, x: int) -> int:\n    """doc"""\n'
    with pytest.raises(ValueError, match="Plan"):
        operations(bad)
    bad = '__all__ = ["f"]\ndef f(mem, **kw: int) -> Plan[int]:\n    """doc"""\n'
    with pytest.raises(ValueError, match="\\*\\*kw"):
        operations(bad)


def test_the_generator_refuses_an_untyped_method_of_an_object():
    working = next(spec for spec in SPECS if spec.package == "graphmem.working")
    bad = 'class WorkingPlans:\n    def items(self, x: int) -> list[int]:\n        """doc"""\n'
    with pytest.raises(ValueError, match="WorkingPlans.items must be annotated -> Plan"):
        operations(bad, spec=working)
    bad = 'class WorkingPlans:\n    def items(self, x) -> Plan[int]:\n        """doc"""\n'
    with pytest.raises(ValueError, match="parameter x has no annotation"):
        operations(bad, spec=working)


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


OBJECTS = [(PlaybookPlans, Playbooks, AsyncPlaybooks), (WorkingPlans, WorkingMemory, AsyncWorkingMemory)]


@pytest.mark.parametrize(("plans", "sync", "aio"), OBJECTS, ids=lambda c: c.__name__)
def test_both_faces_of_an_object_have_its_operations_typed(plans, sync, aio):
    names = [n for n in dir(plans) if not n.startswith("_") and inspect.isfunction(getattr(plans, n))]
    assert names
    for name in names:
        ref = inspect.signature(getattr(plans, name))
        assert ref.return_annotation.startswith("Plan["), f"{plans.__name__}.{name}"
        for cls in (sync, aio):
            method = getattr(cls, name)
            sig = inspect.signature(method)
            assert sig.parameters == ref.parameters, f"{cls.__name__}.{name}"
            assert sig.return_annotation == ref.return_annotation[len("Plan["):-1]
            assert inspect.iscoroutinefunction(method) is (cls is aio)
            assert method.__doc__ == getattr(plans, name).__doc__ or \
                inspect.cleandoc(method.__doc__) == inspect.cleandoc(getattr(plans, name).__doc__)
    assert sorted(n for n in dir(sync) if not n.startswith("_") and callable(getattr(sync, n))) == sorted(names)


def test_each_client_hands_out_its_own_faces():
    for cls, working, playbooks in ((GraphMem, WorkingMemory, Playbooks),
                                    (AsyncGraphMem, AsyncWorkingMemory, AsyncPlaybooks)):
        mem = cls.__new__(cls)  # no connection: handing out a face runs nothing
        mem.tenant = "t"
        wm = mem.working("s-1", budget_tokens=500)
        assert type(wm) is working and wm.session == "s-1" and wm.policy.budget_tokens == 500
        assert type(mem.playbooks) is playbooks


def test_an_unknown_keyword_is_a_type_error_at_call_time():
    mem = GraphMem.__new__(GraphMem)  # no connection: the call fails before any plan runs
    mem.tenant = "t"
    with pytest.raises(TypeError, match="colour"):
        mem.set("deploy", "port", "8000", colour="blue")  # type: ignore[call-arg]


USAGE = '''
from __future__ import annotations

from graphmem import Answer, AsyncGraphMem, GraphMem, HistoryEntry, MemoryContext, WriteResult, Why
from graphmem.playbooks.records import Card, Workflow
from graphmem.working.working import AddResult, Resumed


def sync_use(mem: GraphMem) -> str | None:
    w: WriteResult = mem.set("deploy", "port", "8000", valid_from="2024-03-01", authority="L0")
    ans: Answer = mem.as_of("deploy", "port", valid_at="2024-04-01")
    hist: list[HistoryEntry] = mem.history("deploy", "port")
    why: Why = mem.why("deploy", "port")
    ctx: MemoryContext = mem.context("which port?", subject="deploy", budget_tokens=800)
    n: int = mem.rebuild()
    values: list[str] = mem.history_values("deploy", "port")
    added: AddResult = mem.working("s-1", budget_tokens=800).add("deploy uses 8000", type="decision")
    used: WriteResult = mem.working("s-1").use(added.item.id)
    card: Card | None = mem.playbooks.record_outcome("deploy", ["build", "ship"], "success")
    wf: Workflow = mem.playbooks.approve("deploy", "v-1", approver="alice", version_hash="h")
    return ans.value


async def async_use(amem: AsyncGraphMem) -> str | None:
    w: WriteResult = await amem.revoke("deploy", "port", effective="2024-06-01")
    ans2: Answer = await amem.as_of("deploy", "port", known_at="2024-05-01")
    path: Answer = await amem.path("caroline", ["employer", "city"])
    values: list[str] = await amem.history_values("deploy", "port")
    added: AddResult = await amem.working("s-1", budget_tokens=800).add("deploy uses 8000", type="decision")
    resumed: Resumed = await amem.working("s-1").resume()
    card: Card | None = await amem.playbooks.record_outcome("deploy", ["build", "ship"], "success")
    cards: list[Card] = await amem.playbooks.cards(area="deploy")
    return ans2.value
'''

WRONG = '''
from graphmem import Answer, AsyncGraphMem, GraphMem
from graphmem.playbooks.records import Card
from graphmem.working.working import AddResult


def misuse(mem: GraphMem, amem: AsyncGraphMem) -> None:
    a: int = mem.as_of("deploy", "port")
    b: Answer = amem.as_of("deploy", "port")
    mem.set("deploy", "port", "8000", authority="L9")
    mem.as_of("deploy", "port", valid=None)
    c: AddResult = amem.working("s-1").add("deploy uses 8000")
    d: Card = amem.playbooks.card("c-1")
    e: AddResult = mem.working("s-1").add("deploy uses 8000", type="memo")
    f: str = mem.playbooks.workflows()
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
    assert len(lines) == 8, out.stdout
    assert "Coroutine" in out.stdout and "L9" in out.stdout and "valid" in out.stdout
    by_line = {int(line.split(":")[1]): line for line in lines}
    first = min(by_line)  # a = ..., then one error a line
    assert sorted(by_line) == list(range(first, first + 8)), out.stdout
    assert "Coroutine[Any, Any, AddResult]" in by_line[first + 4], by_line[first + 4]
    assert "Coroutine[Any, Any, Card]" in by_line[first + 5], by_line[first + 5]
    assert "memo" in by_line[first + 6] and "list[WorkflowSummary]" in by_line[first + 7], out.stdout
