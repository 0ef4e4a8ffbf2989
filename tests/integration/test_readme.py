"""The README's commands, as written, against the test server: ``make demo`` (its recipe, run by
make itself) and the ``python`` blocks of "Using it", with the answers their comments promise.

The only substitutions: the tenant (a fresh one, deleted after, instead of 'demo' / 'acme', so
that runs never meet) and ``make``'s ``install`` step, which ``make test`` has already done."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from graphmem import GraphMem

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_names_make_demo_and_make_test():
    assert "make demo" in README and "make test" in README
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    demo = makefile[makefile.index("\ndemo:"):].split("\n\n")[0]
    assert "$(BIN)/graphmem demo --tenant $(DEMO_TENANT)" in demo and "DEMO_TENANT ?= demo" in makefile


def test_make_demo_as_written(neo4j_target, cli_env):
    make = shutil.which("make")
    assert make, "make is missing: apt-get install make"
    tenant = f"demo-{uuid.uuid4().hex[:8]}"
    proc = subprocess.run([make, "-s", "-o", "install", "demo", f"BIN={Path(sys.executable).parent}",
                           f"DEMO_TENANT={tenant}"], cwd=ROOT, capture_output=True, text=True,
                          env=cli_env, timeout=600)
    try:
        assert proc.returncode == 0, proc.stdout + proc.stderr
        out = proc.stdout
        assert f"into tenant '{tenant}'" in out
        lines = {line.split("?")[0]: line for line in out.splitlines() if "?" in line}
        assert lines["where did lin live on Sep 10"].rstrip().endswith("青禾路   [source m0901]")
        assert "河湾路" in lines["where does lin live on Oct 5 (on the trip, after quoting the old email)"]
        assert "海城" in lines["where is lin on Oct 5"]
        assert "(nothing holds)" in lines["deploy port now (the deploy was withdrawn)"]
        assert "why 9000? source r7, it replaced 8000 from r1" in out
        assert "Browser: http" in out
    finally:
        with GraphMem(neo4j_target.settings, tenant=tenant, install_schema=False) as mem:
            mem.drop_tenant()


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, re.S)


def _promised(block: str) -> list[tuple[str, object]]:
    """``expr  # 'value'`` lines: the expression and the literal its comment promises."""
    out = []
    for line in block.splitlines():
        m = re.match(r"\s*(mem\.[^#]+?)\s+#\s*('[^']*'|None)(?=[\s:]|$)", line)
        if m:
            out.append((m.group(1), ast.literal_eval(m.group(2))))
    return out


def _point_clients_at_the_test_server(neo4j_target, cli_env, monkeypatch) -> None:
    """A README block builds its client from the environment, as a newcomer's would: point it here."""
    for k, v in cli_env.items():
        if k.startswith("NEO4J_"):
            monkeypatch.setenv(k, v)
    if not neo4j_target.settings.database:
        monkeypatch.delenv("NEO4J_DATABASE", raising=False)


def test_readme_python_runs_as_written(neo4j_target, cli_env, monkeypatch):
    blocks = _python_blocks()
    assert len(blocks) == 4, "README's python blocks changed: keep this test in step"
    _point_clients_at_the_test_server(neo4j_target, cli_env, monkeypatch)
    tenant = f"readme-{uuid.uuid4().hex[:8]}"
    _quickstart, first, second, third = blocks
    assert first.count('tenant="acme"') == 1
    try:
        namespace: dict = {}
        exec(compile(first.replace('tenant="acme"', f'tenant="{tenant}"'), "README.md (Using it)", "exec"), namespace)
        promised = _promised(first)
        assert len(promised) == 3, promised
        with GraphMem(tenant=tenant, install_schema=False) as mem:
            for expr, want in promised:
                assert eval(expr, {"mem": mem}) == want, expr  # noqa: S307 - the README's own lines
            # the second block continues with the same client: `mem` of the first block
            namespace["mem"] = mem
            exec(compile(second, "README.md (context)", "exec"), namespace)
            ctx = namespace["ctx"]
            assert isinstance(ctx.render(), str) and isinstance(ctx.items, list)
            # the third: a transcript goes in at once, and context() finds what was said
            exec(compile(third, "README.md (messages)", "exec"), namespace)
            promised = _promised(third)
            assert len(promised) == 1, promised
            for expr, want in promised:
                assert eval(expr, {"mem": mem}) == want, expr  # noqa: S307
    finally:
        with GraphMem(tenant=tenant, install_schema=False) as mem:
            mem.drop_tenant()


@pytest.mark.parametrize("command", ["graphmem eval --examples", "graphmem bench --data tests/data/temporal-kg"])
def test_readme_commands_name_paths_inside_the_repository(command):
    assert command in README
    for path in re.findall(r"--data (\S+)", command):
        assert (ROOT / path).is_dir(), path


def test_the_quickstart_runs_as_written(neo4j_target, cli_env, monkeypatch):
    """The README's first block, as a newcomer pastes it: free text in, the promised answers out."""
    block = _python_blocks()[0]
    assert "mem.add(" in block and "mem.search(" in block and block.count('tenant="quickstart"') == 1
    _point_clients_at_the_test_server(neo4j_target, cli_env, monkeypatch)
    tenant = f"quickstart-{uuid.uuid4().hex[:8]}"
    promised = _promised(block)
    assert len(promised) == 2, promised
    try:
        setup, _, _ = block.partition("    mem.as_of(")
        code = setup.replace('tenant="quickstart"', f'tenant="{tenant}"') + "".join(
            f"    assert {expr} == {want!r}, {expr!r}\n" for expr, want in promised)
        exec(compile(code, "README.md (quickstart)", "exec"), {})  # noqa: S102 - the README's own code
    finally:
        with GraphMem(tenant=tenant, install_schema=False) as mem:
            mem.drop_tenant()
