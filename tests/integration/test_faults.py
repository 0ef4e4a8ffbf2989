"""Faults: kill -9 the Neo4j JVM, or the client, in the middle of a bulk import; restart; resume
with the same idempotency ids. No partial event, no duplicate, no gap; projection == rebuild.

The events are the first 3,000 facts of the generated temporal-KG sample in tests/data."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from graphmem import GraphMem

from test_rebuild import canonical_hash

N = 3000

IMPORTER = """
import json, sys
from graphmem import GraphMem
from graphmem.store.settings import Settings
events = json.load(open(sys.argv[2]))
with GraphMem(Settings.from_env(uri=sys.argv[1]), tenant=sys.argv[3], install_schema=False) as mem:
    for i in range(0, len(events), 100):
        mem.apply_bulk(events[i:i + 100], batch_size=100)
        print(i + 100, flush=True)
"""


def _events(kg_dir) -> list[dict]:
    from graphmem.bench.temporal_kg import load
    kg = load(kg_dir / "yago-like" / "train.txt")
    out = [{"op": "topic", "name": r, "cardinality": "many", "id": f"topic-{r}"} for r in kg.relations]
    out += [dict(f.event(), id=f"kg-{i}") for i, f in enumerate(kg.facts[:N])]
    return out


def _start_import(uri: str, path: str, tenant: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", IMPORTER, uri, path, tenant], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for_progress(proc: subprocess.Popen, lines: int) -> None:
    for _ in range(lines):
        if not proc.stdout.readline():
            break


def _check(mem: GraphMem, driver, events: list[dict]) -> None:
    stored = list(mem.events())
    assert [e["seq"] for e in stored] == list(range(1, len(stored) + 1)), "a gap in the ledger"
    ids = [e["event_id"] for e in stored]
    assert len(ids) == len(set(ids)) == len(events), "a duplicate or a missing event"
    assert set(ids) == {e["id"] for e in events}
    facts = driver.execute_query("MATCH (f:Fact {tenant: $t}) WHERE f.uid IS NOT NULL RETURN count(f) AS n",
                                 t=mem.tenant).records[0]["n"]
    assert facts == N, "a partial event"
    before = canonical_hash(driver, mem.tenant)
    mem.rebuild()
    assert canonical_hash(driver, mem.tenant) == before


@pytest.mark.slow
def test_kill_the_client_mid_import(store, driver, kg_dir, neo4j_target, tmp_path):
    events = _events(kg_dir)
    path = tmp_path / "events.json"
    path.write_text(json.dumps(events))
    proc = _start_import(neo4j_target.settings.uri, str(path), store.tenant)
    _wait_for_progress(proc, 5)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = len(list(store.events()))
    assert 0 < done < len(events)
    store.apply_bulk(events, batch_size=500)  # resume with the same ids
    _check(store, driver, events)


@pytest.mark.slow
def test_kill_the_neo4j_jvm_mid_import(store, driver, kg_dir, neo4j_target, tmp_path):
    if neo4j_target.how != "local":
        pytest.skip("only the local server can be killed from here")
    from graphmem.local import server

    events = _events(kg_dir)
    path = tmp_path / "events.json"
    path.write_text(json.dumps(events))
    proc = _start_import(neo4j_target.settings.uri, str(path), store.tenant)
    _wait_for_progress(proc, 5)
    info = server.status()
    ports = {"bolt_port": int(info.bolt_uri.rsplit(":", 1)[1]), "http_port": int(info.browser_url.split(":")[2].split("/")[0])}
    try:
        os.kill(info.pid, signal.SIGKILL)  # the JVM, mid-transaction
        proc.wait(timeout=120)
        assert proc.returncode != 0
    finally:  # whatever happened, the rest of the suite needs its server back
        deadline = time.monotonic() + 30
        while server.status().running and time.monotonic() < deadline:
            time.sleep(0.5)
        server.start(**ports)  # Neo4j recovers from its transaction log
    with GraphMem(neo4j_target.settings, tenant=store.tenant, install_schema=False) as mem:
        done = len(list(mem.events()))
        assert 0 < done < len(events)
        mem.apply_bulk(events, batch_size=500)
        _check(mem, driver, events)
