"""What the raw limit is made of: ``graphmem bench``'s raw ``UNWIND … CREATE``
(``cypher/bench/raw_create.cypher``: the nodes and edges graphmem's bulk ingest writes) against the
same query with parts of the write left out, on the same facts, in a new random order every
round, each into a tenant of its own that is dropped afterwards. It answers how much faster the
limit itself would be if graphmem wrote less — the question ``graphmem bench graphiti``'s
raw ÷ Graphiti leaves (docs/scaling.md). A developer's tool, not part of the package.

    NEO4J_URI=… .venv/bin/python bench/raw_variants.py ~/TILP/data 60000

The variants: ``full`` (the file as written); ``no_related`` (without the ``RELATED`` shortcut
between subject and value entity that path queries walk); ``lean`` (that, and ``HAS_FACT`` /
``VALUE`` without their copies of the fact's intervals); ``no_ledger`` (without the ledger event
and its ``APPLIED_TO`` edge: what a store that keeps no ledger writes).
"""

from __future__ import annotations

import random
import re
import sys
import time
import uuid
from pathlib import Path

from graphmem import GraphMem
from graphmem.bench.kg_phases import AT, raw_rows, raw_write
from graphmem.bench.kg_workload import KGData, chunks, data_files
from graphmem.store import queries


def _without(text: str, pattern: str, replacement: str = "") -> str:
    """``text`` with the one clause ``pattern`` matches replaced (it must match exactly once)."""
    out, n = re.subn(pattern, replacement, text, flags=re.S)
    if n != 1:
        raise SystemExit(f"raw_create.cypher changed: {pattern!r} matched {n} times")
    return out


def variants() -> dict[str, str]:
    full = queries.get("bench/raw_create").text
    no_related = _without(full, r"CREATE \(e\)-\[:RELATED \{[^}]*\}\]->\(o\)\n")
    lean = _without(no_related, r"\[:HAS_FACT \{[^}]*\}\]", "[:HAS_FACT]")
    lean = _without(lean, r"\[:VALUE \{[^}]*\}\]", "[:VALUE]")
    no_ledger = _without(full, r"CREATE \(v:Event .*\Z")
    return {"full": full, "no_related": no_related, "lean": lean, "no_ledger": no_ledger}


def main(data_dir: str, n: int, call: int = 10_000, chunk: int = 5_000) -> None:
    ways = variants()
    store = GraphMem()
    facts = KGData(data_files([Path(data_dir)])).facts
    prefix = f"raw-variants-{uuid.uuid4().hex[:6]}"
    seconds = dict.fromkeys(ways, 0.0)
    order, shuffle = list(ways), random.Random(3).shuffle
    done = 0
    try:
        for replica, part in chunks(facts, n, call):
            rows = raw_rows(part, [dict(f.event(), recorded_at=AT.isoformat()) for f in part], replica, done)
            shuffle(order)
            for k in order:
                t0 = time.perf_counter()
                for lo in range(0, len(rows), chunk):
                    raw_write(store, ways[k], rows[lo:lo + chunk], f"{prefix}-{k}")
                seconds[k] += time.perf_counter() - t0
            done += len(part)
        for k, s in seconds.items():
            print(f"{k:<11} {n / s:8,.0f} facts/s  {seconds['full'] / s:.3f} x full")
    finally:
        for k in ways:
            store.for_tenant(f"{prefix}-{k}").drop_tenant(batch=5_000)
        store.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
