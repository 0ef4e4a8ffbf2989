"""Where a bulk-ingest transaction's time goes: each named query's share of the wall time, the
client's CPU, and the rest (commit, waiting). A developer's tool beside `graphmem bench`, not part
of the package; it wraps the sync client's transaction runner (a private function) to time each
query by name.

    GRAPHMEM_HOME=… NEO4J_URI=… .venv/bin/python bench/profile_ingest.py ~/TILP/data 5000 2

loads CHUNK facts ROUNDS times (one transaction per chunk) into a fresh tenant, prints the
breakdown, and drops the tenant.
"""

from __future__ import annotations

import collections
import sys
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

import graphmem.store.client as client_module
from graphmem import GraphMem
from graphmem.core.scope import check_call
from graphmem.store.settings import Settings
from graphmem.bench.temporal_kg import find_files, load

SECONDS: dict[str, float] = collections.defaultdict(float)
CALLS: collections.Counter[str] = collections.Counter()


def _timed_drive_tx(tx, steps, tenant):  # the same loop as graphmem.store.client._drive_tx, timed per query
    t_in = time.perf_counter()
    try:
        t0 = time.perf_counter()
        call = steps.send(None)
        SECONDS["(python: rules inside the transaction)"] += time.perf_counter() - t0
        while True:
            check_call(tenant, call)
            q = call.query
            t0 = time.perf_counter()
            rows = [r.data() for r in tx.run(q.text, call.params)]
            SECONDS[call.name] += time.perf_counter() - t0
            CALLS[call.name] += 1
            t0 = time.perf_counter()
            call = steps.send(rows)
            SECONDS["(python: rules inside the transaction)"] += time.perf_counter() - t0
    except StopIteration as stop:
        return stop.value
    finally:
        SECONDS["(transaction body)"] += time.perf_counter() - t_in


def _timed_step(original):
    def step(self, s):
        t0 = time.perf_counter()
        try:
            return original(self, s)
        finally:
            if type(s).__name__ == "Tx":
                SECONDS["(execute_write)"] += time.perf_counter() - t0
    return step


def main(data: str, chunk: int, rounds: int) -> None:
    client_module._drive_tx = _timed_drive_tx
    GraphMem._step = _timed_step(GraphMem._step)
    facts = []
    for f in find_files([Path(data)]):
        facts.extend(load(f).facts)
    at = datetime(2026, 1, 1, tzinfo=timezone.utc).isoformat()
    with GraphMem(Settings.from_env(), tenant=f"profile-{uuid.uuid4().hex[:6]}") as mem:
        mem.apply_bulk([{"op": "topic", "name": r, "cardinality": "many"} for r in sorted({f.relation for f in facts})])
        SECONDS.clear()
        CALLS.clear()
        t0, c0 = time.perf_counter(), time.process_time()
        for k in range(rounds):
            part = facts[k * chunk:(k + 1) * chunk]
            mem.apply_bulk([dict(f.event(), recorded_at=at) for f in part], batch_size=chunk)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        try:
            body, total = SECONDS.pop("(transaction body)"), SECONDS.pop("(execute_write)")
            print(f"{chunk * rounds:,} facts in {rounds} transaction(s): {wall:.1f} s wall, client CPU "
                  f"{100 * cpu / wall:.1f} % of it")
            for name, s in sorted(SECONDS.items(), key=lambda kv: -kv[1]):
                print(f"  {name:40s} {100 * s / wall:5.1f} %" + (f"  ({CALLS[name]} calls)" if CALLS[name] else ""))
            print(f"  {'(commit: execute_write minus its body)':40s} {100 * (total - body) / wall:5.1f} %")
            print(f"  {'(outside transactions: validation, events)':40s} {100 * (wall - total) / wall:5.1f} %")
        finally:
            mem.drop_tenant(batch=5_000)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5000, int(sys.argv[3]) if len(sys.argv) > 3 else 2)
