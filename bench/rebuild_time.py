"""How long a rebuild takes, at one page size and another: ``apply_bulk`` of N ``set`` events
on 40 subjects (one second of record time apart) into a tenant of its own, then
``rebuild(batch=200)`` and ``rebuild(batch=2000)``, each timed, then the tenant dropped. It
measures what rebuilding in one transaction under the ledger lock costs (docs/governance.md,
Rebuild): run it on this tree and on one from before that change. A developer's tool, not part of
the package.

    NEO4J_URI=… NEO4J_PASSWORD=… .venv/bin/python bench/rebuild_time.py 5000
"""

from __future__ import annotations

import sys
import time
import uuid
from datetime import datetime, timedelta, timezone

from graphmem import GraphMem
from graphmem.store.settings import Settings

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def main(n: int) -> None:
    with GraphMem(Settings.from_env(), tenant=f"bench-rebuild-{uuid.uuid4().hex[:8]}") as mem:
        try:
            events = [{"op": "set", "subject": f"svc-{i % 40}", "topic": "port", "value": f"p{i}",
                       "recorded_at": (T0 + timedelta(seconds=i)).isoformat()} for i in range(n)]
            t = time.perf_counter()
            mem.apply_bulk(events, batch_size=1000)
            print(f"load {n:,} events: {time.perf_counter() - t:.2f} s")
            for batch in (200, 2000):
                t = time.perf_counter()
                mem.rebuild(batch=batch)
                print(f"rebuild batch={batch}: {time.perf_counter() - t:.2f} s")
        finally:
            mem.drop_tenant()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
