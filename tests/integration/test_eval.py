"""The example scenario files (graphmem/examples), through the client and through the CLI (as a subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from graphmem.bench.evaluation import run_files


def test_structured_scenarios_all_pass(store, eval_dir):
    report = run_files(store, [eval_dir / "scenarios.json"])
    assert [f.line() for f in report.failures] == []
    assert report.passed == 57
    assert report.current.ok == report.current.total and report.provenance.ok == report.provenance.total


def _cli(*args: str, settings=None, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if settings is not None:
        env["NEO4J_URI"] = settings.uri
        if settings.password is not None:
            env["NEO4J_PASSWORD"] = settings.password.get_secret_value()
    exe = Path(sys.executable).parent / "graphmem"
    return subprocess.run([str(exe), *args], capture_output=True, text=True, env=env, timeout=300, cwd=cwd)


def test_cli_eval_prints_the_summary(neo4j_target, eval_dir):
    proc = _cli("eval", str(eval_dir / "scenarios.json"), settings=neo4j_target.settings)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[-3] == "57 passed, 0 failed"
    assert lines[-2].startswith("current-fact accuracy: 51/51")
    assert lines[-1].startswith("provenance accuracy: 17/17")


def test_cli_eval_examples_runs_the_shipped_files_from_anywhere(neo4j_target, tmp_path):
    """README's command: the files come with the package, so any working directory will do."""
    proc = _cli("eval", "--examples", settings=neo4j_target.settings, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[-3] == "79 passed, 0 failed"  # 57 structured + 22 free-text


def test_cli_eval_without_files_says_what_to_give(neo4j_target):
    proc = _cli("eval", settings=neo4j_target.settings)
    assert proc.returncode == 2
    assert "--examples" in proc.stderr and "Traceback" not in proc.stderr


def test_cli_eval_fails_honestly(neo4j_target, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('[{"id": "x", "tenant": "t", "events": [{"op": "set", "subject": "a", "topic": "b", '
                   '"value": "1", "recorded_at": "2026-01-01"}], "queries": [{"q": "as_of", "subject": "a", '
                   '"topic": "b", "expect": {"value": "2"}}]}]')
    proc = _cli("eval", str(bad), settings=neo4j_target.settings)
    assert proc.returncode == 1
    assert 'FAIL x #0 as_of a/b: expected {"value": "2"} got' in proc.stdout
    assert "0 passed, 1 failed" in proc.stdout


def test_cli_error_is_one_line(neo4j_target):
    proc = _cli("as-of", "x", "y", "--valid-at", "yesterday-ish", settings=neo4j_target.settings)
    assert proc.returncode == 1
    assert proc.stderr.strip().startswith("Error: not an ISO 8601 time") and "Traceback" not in proc.stderr


def test_free_text_scenarios_all_pass(store, eval_dir):
    report = run_files(store, [eval_dir / "messages.json"])
    assert [f.line() for f in report.failures] == []
    assert report.passed == 22
