"""What search() costs beside context() on the same tenant: p50 / p95 of each, interleaved.

    python bench/search_cost.py [TURNS] [ROUNDS]

Loads three facts and TURNS generated chat turns (through ingest_bulk) into a fresh tenant, asks the same questions through search() and context() in alternation, prints
the times, and drops the tenant. Absolute times depend on the host (docs/scaling.md); the ratio is
the figure.
"""

from __future__ import annotations

import statistics
import sys
import time
import uuid

from graphmem import GraphMem

QUESTIONS = ["where does lin live?", "When did Caroline go to the support group?", "which port does deploy use?",
             "what is lin allergic to?"]


def main(turns: int = 200, rounds: int = 20) -> None:
    with GraphMem(tenant=f"search-cost-{uuid.uuid4().hex[:8]}") as mem:
        try:
            mem.set("deploy", "port", "8000")
            mem.set("lin", "home_address", "Hewan Rd")
            mem.set("lin", "allergy", "peanuts")
            rows = [{"id": f"t{i}", "speaker": "Caroline" if i % 2 else "Mel", "at": f"2023-05-{1 + i % 28:02d}T10:00:00Z",
                     "text": f"I went to a support group {i} and talked about painting number {i}."}
                    for i in range(turns)]
            mem.ingest_bulk(rows)
            times: dict[str, list[float]] = {"search": [], "context": []}
            for q in QUESTIONS:  # warm-up: plans compiled for both
                mem.search(q), mem.context(q)
            for r in range(rounds):
                for q in QUESTIONS:
                    order = ("search", "context") if r % 2 else ("context", "search")
                    for name in order:
                        start = time.perf_counter()
                        mem.search(q) if name == "search" else mem.context(q)
                        times[name].append((time.perf_counter() - start) * 1000)
            for name, xs in times.items():
                xs.sort()
                print(f"{name:8} p50 {statistics.median(xs):7.1f} ms  p95 {xs[int(len(xs) * 0.95) - 1]:7.1f} ms  "
                      f"({len(xs)} calls)")
            print(f"search p50 / context p50 = {statistics.median(times['search']) / statistics.median(times['context']):.2f}")
        finally:
            mem.drop_tenant()


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
