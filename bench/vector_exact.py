"""What the vector legs' exact tenant scope costs on a kept long-history tenant (docs/recall.md,
"Exact for the tenant"). A developer's tool, not part of the package; it only reads.

For the tenant's questions (graphmem.bench.chatter, the long-history bench's), prints the p50 of

* the fact vector leg (``recall/vector``, both indexes) asked for K hits and never falling back
  (``limit`` 1: one hit of the tenant's is enough), for K = 40, 800, 2,000, 10,000;
* the same leg scanning the tenant's own fact and source vectors (no index);
* how many hits the message leg asks for first (``vector_k``) and when short (``deep_k``);
* ``context()`` as it ships, and with every vector leg forced to scan (``SCAN_UP_TO`` raised).

Run it with the graphmem of the checkout to measure on ``PYTHONPATH``; the tenant comes from
``graphmem bench recall --long-history N --keep --ingest-only --prefix P`` (tenant ``P-47``)::

    NEO4J_URI=… NEO4J_PASSWORD=… PYTHONPATH=$PWD .venv/bin/python bench/vector_exact.py P-47 N
"""

from __future__ import annotations

import os
import sys
import time
from datetime import datetime
from typing import Any, Callable

from graphmem import GraphMem
from graphmem.bench.chatter import conversation, questions
from graphmem.recall import vectors
from graphmem.recall.recall_config import recall_config
from graphmem.store.ops import run_query


def p50(calls: list[Callable[[], Any]]) -> float:
    """The median of the calls' wall times, in ms, after five untimed ones."""
    for call in calls[:5]:
        call()
    lat = []
    for call in calls:
        t0 = time.perf_counter()
        call()
        lat.append((time.perf_counter() - t0) * 1000)
    return sorted(lat)[len(lat) // 2]


def load() -> str:
    return "load " + ", ".join(f"{x:.1f}" for x in os.getloadavg())


def main(tenant: str, turns: int, n: int = 40) -> None:
    chat = conversation(turns, seed=47)
    now = max(datetime.fromisoformat(r["at"]) for r in chat.rows)
    asks = [a.text for a in questions(chat, n, seed=47)]
    with GraphMem(tenant=tenant) as mem:
        vecs = mem.embedder.embed(asks)
        state = mem._run(run_query("recall/begin", tenant))[0]
        print(f"{tenant}: {state['source_vectors']} source and {state['fact_vectors']} fact vectors; the indexes "
              f"{state['source_index']} and {state['fact_index']}", flush=True)

        def leg(v: list[float], k: int, scan: bool) -> Callable[[], Any]:
            return lambda: mem._run(run_query("recall/vector", tenant, vector=v, limit=1 if not scan else 40,
                                              k_facts=k, k_sources=k, k_deep_facts=0, k_deep_sources=0,
                                              scan_facts=scan, scan_sources=scan))

        for k in (40, 800, 2000, 10000):
            print(f"  fact leg, index only, {k} hits a index: p50 {p50([leg(v, k, False) for v in vecs]):.1f} ms; "
                  f"{load()}", flush=True)
        print(f"  fact leg, scan of the tenant's vectors: p50 {p50([leg(v, 0, True) for v in vecs]):.1f} ms; {load()}",
              flush=True)
        cfg = recall_config(None)
        k_vector = vectors.vector_k(cfg.message_limit, cfg.vector_oversample, state["source_vectors"],
                                    state["source_index"])
        print(f"  message leg: first ask {k_vector} hits, deeper ask {vectors.deep_k(k_vector, state['source_vectors'])}",
              flush=True)
        ctx = [lambda a=a: mem.context(a, valid_at=now) for a in asks]
        print(f"  context(): p50 {p50(ctx):.1f} ms; {load()}", flush=True)
        vectors.SCAN_UP_TO = 10**9
        print(f"  context(), every vector leg scanning: p50 {p50(ctx):.1f} ms; {load()}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), *(int(x) for x in sys.argv[3:4]))
