"""What one small tenant's per-tenant queries cost in a database that holds other tenants' data:
each query as the working tree has it, and as an earlier commit had it, timed in alternation.
A developer's tool beside ``bench/asof_parts.py`` (docs/scaling.md, "Many tenants in one
database"), not part of the package. It writes a 20-fact tenant of its own (``scan-cost-small``)
into the database it is given, and drops it at the end. On an empty database there is nothing to
scan and so no difference: first keep a bench run's tenants.

    .venv/bin/graphmem bench --data ~/TILP/data --facts 100000 --keep
    NEO4J_URI=… .venv/bin/python bench/tenant_scans.py 78da604 [ROUNDS]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import neo4j

from graphmem import GraphMem
from graphmem.store import queries
from graphmem.store.settings import Settings

TENANT = "scan-cost-small"
# The per-tenant queries that scanned a whole label before session 21, with parameters of the
# types graphmem sends.
QUERIES = {
    "stats/state": {"now": "2026-12-03T00:00:00Z"},
    "ledger/fingerprint": {},
    "working/open_sessions": {"status": None, "limit": 20},
    "working/erase_checkpoints": {"subject": "s1", "sources": []},
}


def text_at(commit: str, name: str) -> str:
    """The query as graphmem sent it at ``commit``: a line naming the file, then the file without
    its comment lines (what ``queries.Query.text`` is)."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(["git", "-C", str(root), "show", f"{commit}:cypher/{name}.cypher"],
                            capture_output=True, text=True, check=True).stdout
    return f"// cypher/{name}.cypher\n{queries._strip_comments(source)}"


def timed(driver: neo4j.Driver, database: str | None, text: str, params: dict) -> float:
    with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS) as s:
        t0 = time.perf_counter()
        s.run(text, params).consume()
        return (time.perf_counter() - t0) * 1000


def main(commit: str, rounds: int) -> None:
    settings = Settings.from_env()
    mem = GraphMem(settings, tenant=TENANT)
    if not mem.history_values("s0", "t"):
        for i in range(20):
            mem.set(f"s{i}", "t", f"v{i}")
    driver = neo4j.GraphDatabase.driver(settings.uri, auth=settings.auth, notifications_min_severity="OFF")
    with driver.session(database=settings.database) as s:
        facts = s.run("MATCH (f:Fact) RETURN count(f) AS n").single()["n"]
    print(f"a 20-fact tenant in a database of {facts:,} facts; p50 of {rounds} alternated runs each")
    for name, params in QUERIES.items():
        texts = {"before": text_at(commit, name), "now": queries.get(name).text}
        params = {"tenant": TENANT, **params}
        times: dict[str, list[float]] = {k: [] for k in texts}
        for _ in range(rounds + 1):
            for k, text in texts.items():
                times[k].append(timed(driver, settings.database, text, params))
        before, now = (statistics.median(times[k][1:]) for k in texts)
        print(f"{name:28s} at {commit}: {before:8.2f} ms   now: {now:6.2f} ms")
    driver.close()
    mem.drop_tenant()
    mem.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20)
