"""``graphmem bench graphiti`` as the README writes it, on the generated sample in tests/data: a smoke
run of the side-by-side with Graphiti (graphiti-core, the `graphiti` extra) on the same server. The
benchmark's timings are not asserted; the answers, and that the run leaves the database's schema and
data as it found them, are."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXE = str(Path(sys.executable).parent / "graphmem")


def _schema_and_graphiti_nodes(driver, db) -> tuple[set[str], int]:
    names, _, _ = driver.execute_query("SHOW INDEXES YIELD name RETURN name", database_=db)
    left, _, _ = driver.execute_query(
        "MATCH (n) WHERE ((n:Entity OR n:Episodic) AND n.group_id STARTS WITH 'bench-graphiti-') "
        "OR n.tenant STARTS WITH 'bench-graphiti-' RETURN count(n) AS n",
        database_=db)
    return {r["name"] for r in names}, left[0]["n"]


@pytest.mark.slow
def test_bench_graphiti_on_the_sample(neo4j_target, cli_env, driver, tmp_path):
    db = neo4j_target.settings.database
    schema_before, _ = _schema_and_graphiti_nodes(driver, db)
    proc = subprocess.run([EXE, "bench", "graphiti", "--data", "tests/data/temporal-kg", "--facts", "600",
                           "--lookups", "40", "--out", str(tmp_path), "--json"], cwd=ROOT,
                          capture_output=True, text=True, env=cli_env, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    d = json.loads(proc.stdout.strip().splitlines()[-1])
    assert json.loads((tmp_path / "graphiti-600.json").read_text()) == d
    assert d["facts"] == 600 and d["lookups"] == 40 and d["entities"] > 0
    # graphmem and the hand-written Cypher over Graphiti's edges both answer every question
    assert d["graphmem_correct"] == d["graphiti_cypher_correct"] == d["graphiti_cypher_autocommit_correct"] == 40, \
        d["wrong_examples"]
    assert 0 < d["questions_with_an_answer"] < 40  # some questions fall outside every interval
    assert d["graphmem_correct_with_an_answer"] == d["questions_with_an_answer"]
    assert 0 <= d["graphiti_search_correct_with_an_answer"] <= d["graphiti_search_correct"] <= 40
    for side in ("graphmem", "graphiti_cypher", "graphiti_cypher_autocommit", "graphiti_search", "floor"):
        assert 0 < d[f"{side}_p50_ms"] <= d[f"{side}_p99_ms"]
    assert d["graphmem_ingest_facts_per_s"] > 0 and d["graphiti_save_facts_per_s"] > 0
    assert abs(d["ingest_over_graphiti"] - d["graphmem_ingest_facts_per_s"] / d["graphiti_save_facts_per_s"]) < 0.02
    # the raw limit ran in the same rounds: its ratios are those of the three rates
    assert d["raw_facts_per_s"] > 0
    assert abs(d["ingest_over_raw"] - d["graphmem_ingest_facts_per_s"] / d["raw_facts_per_s"]) < 0.002
    assert abs(d["raw_over_graphiti"] - d["raw_facts_per_s"] / d["graphiti_save_facts_per_s"]) < 0.02
    assert abs(d["asof_over_graphiti_cypher"] - d["graphmem_p50_ms"] / d["graphiti_cypher_p50_ms"]) < 0.02
    # nothing left behind: every side's nodes are deleted and the indexes Graphiti created dropped
    schema_after, left = _schema_and_graphiti_nodes(driver, db)
    assert schema_after == schema_before and left == 0


def test_bench_graphiti_refuses_more_facts_than_the_data_has(cli_env):
    proc = subprocess.run([EXE, "bench", "graphiti", "--data", "tests/data/temporal-kg", "--facts", "100000"],
                          cwd=ROOT, capture_output=True, text=True, env=cli_env, timeout=300)
    assert proc.returncode == 1
    assert "--facts must be between 1 and the 7,836 distinct facts" in proc.stderr and "Traceback" not in proc.stderr
