"""context() tells an agent what as_of answers: every as_of query of the example scenario files,
asked again through recall (``graphmem eval --recall``), shows the same value, values or
conflict, and the same source — through both clients."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from graphmem.bench.evaluation import run_files, run_files_async

EXE = str(Path(sys.executable).parent / "graphmem")


def test_context_agrees_with_as_of_on_every_eval_query(store, eval_dir):
    files = [eval_dir / "scenarios.json", eval_dir / "messages.json"]
    report = run_files(store, files, recall=True)
    assert report.recall.total >= 60
    assert report.failed == 0, "\n".join(f.line() for f in report.failures)
    assert report.recall.ok == report.recall.total


def test_async_client_agrees_too(neo4j_target, eval_dir):
    from graphmem import AsyncGraphMem

    async def go():
        async with AsyncGraphMem(neo4j_target.settings) as mem:
            return await run_files_async(mem, [eval_dir / "scenarios.json"], recall=True)

    report = asyncio.run(go())
    assert report.failed == 0 and report.recall.ok == report.recall.total > 40


def test_cli_eval_recall(neo4j_target, eval_dir):
    env = dict(os.environ, NEO4J_URI=neo4j_target.settings.uri)
    out = subprocess.run([EXE, "eval", str(eval_dir / "messages.json"), "--recall"],
                         capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "recall agreement:" in out.stdout and "(100.0%)" in out.stdout.splitlines()[-1]
