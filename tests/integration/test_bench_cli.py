"""``graphmem bench --data DIR`` as the README writes it, on the generated sample in tests/data
(a smoke run: the benchmark's figures are not asserted, its correctness check is)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXE = str(Path(sys.executable).parent / "graphmem")


def _env(settings) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "GRAPHMEM_TEMPORAL_KG"}
    env["NEO4J_URI"] = settings.uri
    if settings.password is not None:
        env["NEO4J_PASSWORD"] = settings.password.get_secret_value()
    return env


@pytest.mark.slow
def test_bench_on_the_sample_in_the_repository(neo4j_target):
    proc = subprocess.run([EXE, "bench", "--data", "tests/data/temporal-kg", "--facts", "500", "--lookups", "50",
                           "--contexts", "2", "--context-warmup", "3", "--ingest-warmup", "300", "--asof-warmup", "20",
                           "--messages", "40", "--json"], cwd=ROOT,
                          capture_output=True, text=True, env=_env(neo4j_target.settings), timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    d = json.loads(proc.stdout.strip().splitlines()[-1])
    assert d["facts"] == 500 and d["replication"] == "7,836 distinct facts"
    assert d["skipped_facts"] == {"year outside 1..9998": 1, "end year before start year": 1, "malformed line": 1}
    assert d["asof_correct"] == d["asof_checked"] == 1000, d["asof_wrong_examples"]
    assert d["path3_answered"] == d["path3_runs"]  # chains found in the data answer (500 facts may hold none)
    assert "as-of correctness    1000/1000" in proc.stdout
    # the round-trip floor, measured in the same run, and the ratio the README quotes
    assert d["asof_floor_p50_ms"] > 0
    assert abs(d["asof_over_floor"] - d["asof_p50_ms"] / d["asof_floor_p50_ms"]) < 0.02
    assert d["asof_lookups"] == 50 and d["asof_warmup"] == 20 and d["asof_warmup_ratio"] > 0
    assert d["messages"] == 40 and d["messages_per_s"] > 0 and d["context_p50_ms"] > 0
    assert d["context_warmup_calls"] == 3 and d["context_warmup_p50_ms"] > 0
    assert d["ingest_warmup_facts"] == 300 and d["ingest_warmup_ratio"] > 0
    assert "the untimed warm-up's" in proc.stdout  # ingest's and as_of's


def test_bench_without_data_says_where_to_get_it(neo4j_target, tmp_path):
    proc = subprocess.run([EXE, "bench", "--facts", "10"], cwd=tmp_path, capture_output=True, text=True,
                          env=_env(neo4j_target.settings), timeout=120)
    assert proc.returncode == 1
    assert "--data" in proc.stderr and "xiongsiheng/TILP" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run([EXE, "bench", "--data", str(tmp_path), "--facts", "10"], capture_output=True, text=True,
                          env=_env(neo4j_target.settings), timeout=120)
    assert proc.returncode == 1 and "no train.txt" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_bench_recall_long_history_and_many_tenants(neo4j_target, driver, tmp_path):
    """`bench recall --long-history N` and `--tenants T --tenant-turns M` at a tiny size, through the
    CLI: every figure the brief asks for is there (ingest, first call by shape, p50/p95/p99, the
    RETURN 1 floor, the load), and no bench tenant is left behind."""
    import uuid

    from graphmem.bench.chatter import SHAPES

    prefix = f"test-long-{uuid.uuid4().hex[:8]}"
    env = _env(neo4j_target.settings)
    for args, tenants, turns in ((["--long-history", "48"], 1, 48), (["--tenants", "2", "--tenant-turns", "24"], 2, 24)):
        proc = subprocess.run([EXE, "bench", "recall", *args, "--asks", "8", "--prefix", prefix, "--out",
                               str(tmp_path), "--json"], cwd=ROOT, capture_output=True, text=True, env=env,
                              timeout=900)
        assert proc.returncode == 0, proc.stderr[-3000:]
        d = json.loads(proc.stdout.strip().splitlines()[-1])
        assert d["benchmark"] == "long-history" and d["tenants"] == tenants and d["turns"] == tenants * turns
        assert d["ingest_turns_per_s"] > 0 and d["ingest_cpu_ms_per_turn"] > 0
        assert set(d["first_call"]) == set(SHAPES) | {"floor_first_ms"}
        for s in SHAPES:
            f = d["first_call"][s]
            assert min(f["cold_first_ms"], f["warm_plans_ms"], f["first_ms"], f["second_ms"], f["connect_ms"]) > 0
        assert d["context"]["n"] == 8 and 0 < d["context"]["p50_ms"] <= d["context"]["p95_ms"] <= d["context"]["p99_ms"]
        assert sum(d["context_by_shape"][s]["n"] for s in SHAPES) == 8
        assert d["floor"]["n"] == 8 and d["floor"]["p50_ms"] > 0 and len(d["load_average"]) == 3
        saved = tmp_path / (f"long-{turns}.json" if tenants == 1 else f"tenants-{tenants}x{turns}.json")
        assert json.loads(saved.read_text())["turns"] == d["turns"]
    left, _, _ = driver.execute_query("MATCH (h:LedgerHead) WHERE h.tenant STARTS WITH $p RETURN count(h) AS n",
                                      {"p": prefix}, database_=neo4j_target.settings.database)
    assert left[0]["n"] == 0


def test_bench_recall_needs_locomo_or_a_synthetic_history(neo4j_target, tmp_path):
    proc = subprocess.run([EXE, "bench", "recall", "--out", str(tmp_path)], cwd=tmp_path, capture_output=True,
                          text=True, env=_env(neo4j_target.settings), timeout=120)
    assert proc.returncode == 1 and "--long-history" in proc.stderr and "Traceback" not in proc.stderr
