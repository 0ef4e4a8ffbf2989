"""The commit window of a rebuild or an erase, counted (docs/governance.md, Rebuild): readers of
*other* subjects loop ``as_of`` while the tenant is erased from, or rebuilt after one subject's
projection was broken, ``runs`` times over; every answer that is not the subject's last value,
and every error, is counted. Run it on this tree and on one from before the diff-only commit
(graphmem.store.projection_diff) to compare. A developer's tool, not part of the package.

    NEO4J_URI=… NEO4J_PASSWORD=… .venv/bin/python bench/commit_window.py erase 20 400
    NEO4J_URI=… NEO4J_PASSWORD=… .venv/bin/python bench/commit_window.py repair 20 400

Arguments: the mode (``erase``: set then erase a subject of its own each run; ``erase-embedded``:
the same with every fact embedded first, by the offline hashing embedder, so that the erase also
drops every embedding; ``repair``: break subject svc-0 several ways with raw Cypher, then
``rebuild``), the runs, and the events loaded
(``set``s of ``port`` on 40 subjects, one second of record time apart).
"""

from __future__ import annotations

import random
import sys
import threading
import time
import uuid
from collections import Counter
from datetime import datetime, timedelta, timezone
from typing import Any

import neo4j

from graphmem import GraphMem
from graphmem.recall.embed import HashingEmbedder
from graphmem.store.settings import Settings

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
BREAK = ("MATCH (:Entity {tenant: $t, uid: 'svc-0'})-[h:HOLDS]->() WITH h LIMIT 1 DELETE h",
         "MATCH (f:Fact {tenant: $t, subject: 'svc-0'}) WITH f ORDER BY f.seq DESC LIMIT 1 SET f.value = 'bogus'",
         "MATCH (f:Fact {tenant: $t, subject: 'svc-0'}) WITH f ORDER BY f.seq LIMIT 1 REMOVE f.valid_from")


def _readers(settings: Settings, tenant: str, expected: dict[str, str], stop: threading.Event,
             tally: Counter[str], threads: int = 2) -> list[threading.Thread]:
    def loop(n: int) -> None:
        rnd = random.Random(n)
        subjects = sorted(expected)
        with GraphMem(settings, tenant=tenant, install_schema=False) as mem:
            while not stop.is_set():
                s = rnd.choice(subjects)
                try:
                    tally["wrong" if mem.as_of(s, "port").value != expected[s] else "right"] += 1
                except Exception as e:  # noqa: BLE001 - counted
                    tally[f"error: {type(e).__name__}: {e}"[:120]] += 1

    out = [threading.Thread(target=loop, args=(n,)) for n in range(threads)]
    for t in out:
        t.start()
    return out


def main(mode: str, runs: int, n: int) -> None:
    settings = Settings.from_env()
    tenant = f"bench-window-{uuid.uuid4().hex[:8]}"
    driver = neo4j.GraphDatabase.driver(settings.uri, auth=settings.auth)
    embedder = HashingEmbedder() if mode == "erase-embedded" else False
    with GraphMem(settings, tenant=tenant, embedder=embedder) as mem:
        try:
            events: list[dict[str, Any]] = [
                {"op": "set", "subject": f"svc-{i % 40}", "topic": "port", "value": f"p{i}",
                 "recorded_at": (T0 + timedelta(seconds=i)).isoformat()} for i in range(n)]
            mem.apply_bulk(events, batch_size=1000)
            expected = {e["subject"]: e["value"] for e in events}
            others = {s: v for s, v in expected.items() if s != "svc-0"}
            total: Counter[str] = Counter()
            took = 0.0
            for run in range(runs):
                if mode.startswith("erase"):
                    mem.set(f"gone-{run}", "home_address", f"secret {run}")
                    if embedder:
                        print(f"run {run + 1}: embedded {mem.embed_pending()}", flush=True)
                else:
                    for q in BREAK:
                        driver.execute_query(q, t=tenant)
                tally: Counter[str] = Counter()
                stop = threading.Event()
                threads = _readers(settings, tenant, others, stop, tally)
                while sum(tally.values()) < 4:
                    time.sleep(0.01)
                t = time.perf_counter()
                if mode.startswith("erase"):
                    mem.erase(subject=f"gone-{run}", reason="bench")
                else:
                    mem.rebuild(batch=200)
                took += time.perf_counter() - t
                time.sleep(0.05)
                stop.set()
                for th in threads:
                    th.join()
                total.update(tally)
                print(f"run {run + 1}: {dict(tally)}", flush=True)
            reads = sum(total.values())
            bad = reads - total["right"]
            print(f"{mode}: {runs} runs, {n:,} events, {reads:,} reads, {total['wrong']} wrong, "
                  f"{bad - total['wrong']} errors; {took / runs:.2f} s per {mode}")
            for k, v in total.items():
                if k.startswith("error"):
                    print(f"  {v} × {k}")
        finally:
            mem.drop_tenant()
            driver.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "erase", int(sys.argv[2]) if len(sys.argv) > 2 else 20,
         int(sys.argv[3]) if len(sys.argv) > 3 else 400)
