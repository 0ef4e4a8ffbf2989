"""The labelled extraction sets: precision and recall per family, library and CLI.

tune.jsonl was used to tune the rules; heldout.jsonl never was (docs/extraction.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem.extract.score import load, score

DATA = Path(__file__).parent.parent / "data" / "extraction"



def test_the_sets_are_big_enough_and_bilingual():
    rows = load(DATA / "tune.jsonl") + load(DATA / "heldout.jsonl")
    assert len(rows) >= 300
    assert {r["lang"] for r in rows} == {"en", "zh"}
    assert {"chat", "email", "ticket", "meeting"} <= {r["register"] for r in rows}
    assert sum(1 for r in rows if not r["expect"]) >= 90  # sentences that must draw nothing


@pytest.mark.parametrize("name, precision, recall", [("tune.jsonl", 0.98, 0.95), ("heldout.jsonl", 0.95, 0.90)])
def test_precision_and_recall(ex, name, precision, recall):
    result = score(ex, load(DATA / name))["families"]["all"]
    assert result["precision"] >= precision and result["recall"] >= recall, result


def test_cli_prints_the_table():
    out = subprocess.run([sys.executable, "-m", "graphmem.interfaces.cli", "bench-extract", "--labelled",
                          str(DATA / "heldout.jsonl"), "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert {"trap", "quote", "statement", "all"} <= set(data["families"])


def test_cli_refuses_a_bad_file(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    out = subprocess.run([sys.executable, "-m", "graphmem.interfaces.cli", "bench-extract", "--labelled", str(bad)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 1 and "Error: cannot score" in out.stderr
