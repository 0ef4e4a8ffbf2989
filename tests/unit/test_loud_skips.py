"""Skips are loud: a run ends with one line naming what was skipped and why (with the install
hint the skip gave); with ``CI`` set, a skip is a failure. Run on a throwaway suite that uses
this repository's conftest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"

SUITE = '''
import pytest

def test_runs():
    assert True

def test_needs_chromium():
    pytest.skip("Chromium is missing: apt-get install chromium chromium-driver")
'''


def _run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    shutil.copy(CONFTEST, tmp_path / "conftest.py")
    (tmp_path / "test_suite.py").write_text(SUITE)
    clean = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                          capture_output=True, text=True, env=dict(clean, **env), cwd=tmp_path, timeout=120)


def test_a_skip_is_named_with_its_install_hint(tmp_path):
    proc = _run(tmp_path)
    assert proc.returncode == 0, proc.stdout
    line = next(x for x in proc.stdout.splitlines() if x.startswith("graphmem: SKIPPED"))
    assert line == ("graphmem: SKIPPED 1 test(s) — Chromium is missing: apt-get install chromium chromium-driver "
                    "(1: test_needs_chromium)")


def test_in_ci_a_skip_is_a_failure(tmp_path):
    proc = _run(tmp_path, CI="true")
    assert proc.returncode == 1, proc.stdout
    assert "1 failed, 1 passed" in proc.stdout and "skipped in CI" in proc.stdout


def test_nothing_skipped_says_so(tmp_path):
    shutil.copy(CONFTEST, tmp_path / "conftest.py")
    (tmp_path / "test_suite.py").write_text("def test_runs():\n    assert True\n")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0 and "graphmem: nothing skipped" in proc.stdout
