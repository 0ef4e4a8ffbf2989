"""What the size of an embedding write transaction does to vector search: re-embed one kept bench
tenant in pages of each given size, then time nearest-neighbour searches of both vector indexes
beside a ``RETURN 1``, and count each index's Lucene segments when the server's database folder
is given (a local server: ``$GRAPHMEM_HOME/neo4j/data/databases/neo4j``). A developer's tool
beside ``bench/asof_parts.py`` (docs/recall.md, "How the vectors are written"), not part of the
package. It drops and re-creates the two vector indexes and every vector of the tenant: run it
on a bench database only.

    NEO4J_URI=… .venv/bin/python bench/vector_pages.py bench-4a2287-r0 1000,10000 [DB_FOLDER [N]]

With N, it then adds N one-line messages to the tenant one at a time, each embedded on its own and
followed by a search (what an agent's conversation does), and times the searches again.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

import neo4j

from graphmem import GraphMem
from graphmem.store.settings import Settings

TASKS = ["member of sports team", "educated at", "award received", "position held", "spouse", "employer",
         "residence", "nominated for", "member of political party", "head of government"]
SEARCHES = {
    "fact k40": "CALL db.index.vector.queryNodes('fact_embedding', 40, $v) YIELD node, score "
                "WITH node, score WHERE node.tenant = $t RETURN node.uid, score",
    "source k40": "CALL db.index.vector.queryNodes('source_embedding', 40, $v) YIELD node, score "
                  "WITH node, score WHERE node.tenant = $t RETURN node.uid, score",
    "RETURN 1": "RETURN 1",
}


def unembed(driver: neo4j.Driver, tenant: str) -> None:
    """Drop both vector indexes and the tenant's vectors, so the next catch-up writes them all anew."""
    for index in ("fact_embedding", "source_embedding"):
        driver.execute_query(f"DROP INDEX {index} IF EXISTS")
    with driver.session() as s:
        for label in ("Fact", "Source"):
            s.run(f"MATCH (x:{label} {{tenant: $t}}) WHERE x.embedding IS NOT NULL "
                  "CALL (x) { REMOVE x.embedding } IN TRANSACTIONS OF 10000 ROWS", t=tenant).consume()
    driver.execute_query("MATCH (x:EmbeddingState {tenant: $t}) DELETE x", t=tenant)


def segments(driver: neo4j.Driver, folder: Path | None) -> str:
    if folder is None:
        return "n/a"
    rows, _, _ = driver.execute_query("SHOW INDEXES YIELD id, name, type WHERE type = 'VECTOR' RETURN id, name")
    return ", ".join(f"{r['name']} {len(list((folder / 'schema/index/vector-2.0' / str(r['id'])).rglob('*.si')))}"
                     for r in rows)


def searches(driver: neo4j.Driver, mem: GraphMem, tenant: str, rounds: int = 100) -> dict[str, float]:
    """p50 of each search, interleaved, after three untimed rounds (the server compiles them)."""
    rng = random.Random(5)
    vectors = mem.embedder.embed([f"{rng.choice(TASKS)} of Q{rng.randint(1, 99_999)}" for _ in range(rounds)])
    times: dict[str, list[float]] = {name: [] for name in SEARCHES}
    with driver.session(default_access_mode=neo4j.READ_ACCESS) as s:
        for timed in (False, False, False, True):
            for v in vectors:
                for name, query in SEARCHES.items():
                    t0 = time.perf_counter()
                    list(s.run(query, v=v, t=tenant))
                    if timed:
                        times[name].append((time.perf_counter() - t0) * 1000)
    return {name: statistics.median(ms) for name, ms in times.items()}


def report(p50: dict[str, float]) -> str:
    return "; ".join(f"{name} p50 {ms:.2f} ms" for name, ms in p50.items())


def main() -> None:
    tenant, pages = sys.argv[1], [int(p) for p in sys.argv[2].split(",")]
    folder = Path(sys.argv[3]) if len(sys.argv) > 3 else None
    settings = Settings.from_env()
    driver = neo4j.GraphDatabase.driver(settings.uri, auth=settings.auth, notifications_min_severity="OFF")
    mem = GraphMem(settings, tenant=tenant)
    for page in pages:
        unembed(driver, tenant)
        t0 = time.perf_counter()
        embedded = mem.embed_pending(limit=page)
        took = time.perf_counter() - t0
        p50 = searches(driver, mem, tenant)
        print(f"{page:>7,} a transaction: {embedded:,} vectors in {took:.1f} s; segments {segments(driver, folder)}; "
              + report(p50))
    if len(sys.argv) > 4:
        for i in range(int(sys.argv[4])):
            mem.add_source(f"vector-pages-{i}", kind="message", at="2026-06-01T00:00:00Z", author="ann",
                           text=f"note {i} about the weekend trip")
            mem.embed_pending()
            driver.execute_query(SEARCHES["source k40"], v=mem.embedder.embed(["weekend"])[0], t=tenant)
        print(f"then {sys.argv[4]} one-vector writes: segments {segments(driver, folder)}; "
              + report(searches(driver, mem, tenant)))
    driver.close()


if __name__ == "__main__":
    main()
