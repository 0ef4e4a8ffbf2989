"""``mem.as_of`` with its read sent two ways, interleaved in one process on one tenant: as graphmem
sends reads (an auto-commit transaction in a READ session, one round trip) and as it sent them
until session 15 (a managed transaction, ``execute_query``: a second round trip for the COMMIT).
A developer's tool, not part of the package; docs/scaling.md quotes it.

    NEO4J_URI=… .venv/bin/python bench/read_transport.py ~/TILP/data 20000 4000

loads N facts into a fresh tenant, asks Q random as-of questions both ways, drops the tenant.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any, LiteralString

import neo4j

from graphmem import GraphMem
from graphmem.bench.kg_phases import AT
from graphmem.bench.kg_workload import KGData, Questions, data_files
from graphmem.store.settings import Settings


def main(folder: str, n: int, asked: int) -> None:
    data = KGData(data_files([Path(folder)]))
    facts = data.facts[:n]
    mem = GraphMem(Settings.from_env(), tenant=f"read-transport-{uuid.uuid4().hex[:6]}")
    auto_commit = mem._read
    try:
        mem.apply_bulk([{"op": "topic", "name": r, "cardinality": "many"} for r in data.relations])
        mem.apply_bulk([dict(f.event(), recorded_at=AT.isoformat()) for f in facts])
        data.restrict(facts)
        ask = Questions(data, facts, random.Random(1))

        def managed(text: LiteralString, params: dict[str, Any]) -> list[neo4j.Record]:
            records, _, _ = mem._driver.execute_query(text, params, database_=mem.settings.database,
                                                      routing_=neo4j.RoutingControl.READ,
                                                      bookmark_manager_=mem.bookmark_manager)
            return records

        times: dict[str, list[float]] = {"auto-commit (graphmem's)": [], "execute_query (before)": []}
        for i in range(asked + 400):  # the first 400 rounds warm up and are not counted
            s, r, t = ask()
            for k in (list(times) if i % 2 else list(times)[::-1]):
                mem._read = auto_commit if k.startswith("auto") else managed  # type: ignore[method-assign]
                t0 = time.perf_counter()
                mem.as_of(s, r, valid_at=t)
                if i >= 400:
                    times[k].append((time.perf_counter() - t0) * 1000)
        for k, v in times.items():
            print(f"mem.as_of, the read sent by {k:26s} p50 {statistics.median(v):.3f} ms")
    finally:
        mem._read = auto_commit  # type: ignore[method-assign]
        mem.drop_tenant(batch=5_000)
        mem.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20_000, int(sys.argv[3]) if len(sys.argv) > 3 else 4_000)
