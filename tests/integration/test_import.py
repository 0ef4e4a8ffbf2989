"""graphmem import as a subprocess: a progress bar, a correct summary, rejects with reasons."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

from graphmem import GraphMem

EXE = str(Path(sys.executable).parent / "graphmem")


def _env(settings) -> dict[str, str]:
    env = dict(os.environ, NEO4J_URI=settings.uri)
    if settings.password is not None:
        env["NEO4J_PASSWORD"] = settings.password.get_secret_value()
    return env


def test_import_events_with_rejects(neo4j_target, tmp_path):
    tenant = f"imp-{uuid.uuid4().hex[:8]}"
    lines = [{"op": "set", "subject": "x", "topic": "p", "value": "1", "recorded_at": "2026-01-02T00:00:00Z"},
             {"op": "set", "subject": "x", "topic": "p"},
             {"op": "set", "subject": "x", "topic": "p", "value": "2", "recorded_at": "2026-01-01T00:00:00Z"},
             {"op": "set", "subject": "x", "topic": "p", "value": "3", "recorded_at": "2026-01-03T00:00:00Z"}]
    f = tmp_path / "events.jsonl"
    f.write_text("\n".join(json.dumps(x) for x in lines) + "\nnot json\n")
    proc = subprocess.run([EXE, "import", str(f), "-t", tenant, "--json"], capture_output=True, text=True,
                          env=_env(neo4j_target.settings), timeout=300)
    try:
        assert proc.returncode == 1, proc.stderr  # anything rejected: a non-zero exit (the rest is imported)
        s = json.loads(proc.stdout.strip().splitlines()[-1])
        assert (s["events"], s["facts"], s["rejected"]) == (2, 2, 3)
        reasons = " ".join(r["reason"] for r in s["rejects"])
        assert "not JSON" in reasons and "exactly one of" in reasons and "record time only moves forward" in reasons
        with GraphMem(neo4j_target.settings, tenant=tenant, install_schema=False) as mem:
            assert mem.history_values("x", "p") == ["1", "3"]
    finally:
        with GraphMem(neo4j_target.settings, tenant=tenant, install_schema=False) as mem:
            mem.drop_tenant()


def test_import_temporal_kg_shows_progress_and_summary(neo4j_target, kg_dir, tmp_path):
    tenant = f"kg-{uuid.uuid4().hex[:8]}"
    src = kg_dir / "yago-like"
    kg = tmp_path / "kg"
    kg.mkdir()
    for name in ("entity2id.txt", "relation2id.txt"):
        (kg / name).write_text((src / name).read_text())
    (kg / "test.txt").write_text("\n".join((src / "test.txt").read_text().splitlines()[:600]) + "\n")
    proc = subprocess.run([EXE, "import", str(kg / "test.txt"), "-t", tenant, "--batch", "200"],
                          capture_output=True, text=True, env=dict(_env(neo4j_target.settings), COLUMNS="100"),
                          timeout=300)
    try:
        assert proc.returncode == 0, proc.stderr
        assert "importing" in proc.stdout and "events" in proc.stdout
        topics = len({line.split("\t")[1] for line in (kg / "test.txt").read_text().splitlines()})
        assert f"{600 + topics:,} events, 600 facts in" in proc.stdout
        with GraphMem(neo4j_target.settings, tenant=tenant, install_schema=False) as mem:
            first = (kg / "test.txt").read_text().splitlines()[0].split("\t")
            names = dict(l.split("\t")[1::-1] for l in (kg / "entity2id.txt").read_text().splitlines())
            rels = dict(l.split("\t")[1::-1] for l in (kg / "relation2id.txt").read_text().splitlines())
            s, r, o = names[first[0]].strip("<>"), rels[first[1]].strip("<>"), names[first[2]].strip("<>")
            got = mem.as_of(s, r, valid_at=f"{first[3]}-07-01")
            assert o in (got.values or [])
    finally:
        with GraphMem(neo4j_target.settings, tenant=tenant, install_schema=False) as mem:
            mem.drop_tenant()


def test_import_a_downloaded_folder_takes_its_train_valid_test(neo4j_target, kg_dir):
    """``graphmem import DIR`` as docs/data.md shows it (TILP's data/WIKIDATA12k), here on the generated sample."""
    from graphmem.bench.temporal_kg import PARTS, load

    tenant = f"kg-{uuid.uuid4().hex[:8]}"
    folder = kg_dir / "wikidata-like"
    files = [load(folder / part) for part in PARTS]
    facts = sum(len(f.facts) for f in files)
    topics = sum(len(f.relations) for f in files)  # each file declares its relations many-valued
    proc = subprocess.run([EXE, "import", str(folder), "-t", tenant, "--json"], capture_output=True, text=True,
                          env=_env(neo4j_target.settings), timeout=300)
    try:
        assert proc.returncode == 0, proc.stderr
        s = json.loads(proc.stdout.strip().splitlines()[-1])
        assert [Path(f).name for f in s["files"]] == list(PARTS)
        assert (s["facts"], s["rejected"]) == (facts, 0)
        assert s["events"] == facts + topics
    finally:
        with GraphMem(neo4j_target.settings, tenant=tenant, install_schema=False) as mem:
            mem.drop_tenant()


def test_import_a_missing_folder_is_one_line(neo4j_target, tmp_path):
    proc = subprocess.run([EXE, "import", str(tmp_path / "nowhere"), "-t", "x", "--json"], capture_output=True,
                          text=True, env=_env(neo4j_target.settings), timeout=120)
    assert proc.returncode == 1, proc.stdout
    assert proc.stderr.startswith("Error:") and "nowhere" in proc.stderr and "Traceback" not in proc.stderr
