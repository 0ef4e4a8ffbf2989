"""Where an as-of read's time goes: the client's ``mem.as_of``; the same query
(``cypher/as_of.cypher``, without its comment lines, as graphmem sends it, times as
``instant`` maps) through the bare driver the way graphmem sends its reads (an auto-commit
transaction in a READ session); the file as written, comments and all, sent the same way;
``RETURN 1`` after a comment line as long as those comments (what Neo4j's reading of comments
costs, free of the query's own noise); a single ``MATCH`` over the same ``HOLDS`` segments, sent
the same way; ``RETURN 1`` the same way; and ``RETURN 1`` as a managed transaction
(``execute_query``: a second round trip for its COMMIT). Interleaved in a new random order every
round on one tenant, p50 of each. A developer's tool beside ``graphmem bench graphiti`` (README,
"graphmem ÷ Graphiti"), not part of the package.

    NEO4J_URI=… .venv/bin/python bench/asof_parts.py ~/TILP/data 60000 3000

loads N facts into a fresh tenant, asks Q random as-of questions seven ways, drops the tenant.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import neo4j

from graphmem import GraphMem
from graphmem.bench.kg_phases import AT
from graphmem.bench.kg_workload import KGData, Questions, data_files
from graphmem.store import queries
from graphmem.store.projection.values import instant
from graphmem.store.settings import Settings

# The one-MATCH question a developer would write over graphmem's own segments: valid time only,
# one column (no cardinality, expiry notes, provenance or transaction time).
ONE_MATCH = """MATCH (e:Entity {tenant: $tenant, uid: $subject})-[h:HOLDS]->(f:Fact)
WHERE h.topic = $topic AND h.env = '' AND h.valid_from <= datetime($valid_at)
  AND (h.valid_to IS NULL OR datetime($valid_at) < h.valid_to)
RETURN f.value AS value"""


def fresh_tenant(data: KGData, facts: list[Any], prefix: str) -> GraphMem:
    """A new tenant holding ``facts``, every relation a many-valued topic, loaded through the bulk
    API 20,000 a call as ``graphmem bench`` loads them (bench/asof_ab.py uses it too)."""
    mem = GraphMem(Settings.from_env(), tenant=f"{prefix}-{uuid.uuid4().hex[:6]}")
    mem.apply_bulk([{"op": "topic", "name": r, "cardinality": "many"} for r in data.relations])
    for lo in range(0, len(facts), 20_000):
        mem.apply_bulk([dict(f.event(), recorded_at=AT.isoformat()) for f in facts[lo:lo + 20_000]])
    return mem


def bare_reader(mem: GraphMem) -> Callable[[str, dict[str, Any]], Any]:
    """A read sent the way graphmem sends its reads, but through the bare driver: an auto-commit
    transaction in a READ session on the client's own driver and bookmarks."""
    driver, bookmarks = mem._driver, mem.bookmark_manager

    def bare(query: str, params: dict[str, Any]) -> Any:
        with driver.session(database=mem.settings.database, default_access_mode=neo4j.READ_ACCESS,
                            bookmark_manager=bookmarks) as session:
            return list(session.run(query, params))
    return bare


def interleave(ways: dict[str, Callable[[str, str, datetime], Any]], ask: Questions, asked: int,
               warm: int) -> dict[str, list[float]]:
    """Each way asked the same random question in turn, in a new random order every round; ms a
    call, the first ``warm`` rounds (plans warming up) left out.

    Not a rotation: rotating keeps the cycle, so each way always follows the same other one, and a
    call right after a heavier read is slower (the server still finishing it). Rotated, two ways
    sending the same query 0.09 ms apart swapped places when listed the other way round
    (docs/scaling.md, "What a read costs")."""
    times: dict[str, list[float]] = {k: [] for k in ways}
    order, rng = list(ways), random.Random(5)
    for i in range(asked + warm):
        s, r, t = ask()
        rng.shuffle(order)
        for k in order:
            t0 = time.perf_counter()
            ways[k](s, r, t)
            if i >= warm:
                times[k].append((time.perf_counter() - t0) * 1000)
    return times


def report(times: dict[str, list[float]], floor: str, called: str) -> None:
    """p50 of each way, and its ratio to the p50 of ``floor`` (printed as ``called``)."""
    base = statistics.median(times[floor])
    for k, v in times.items():
        print(f"{k:28s} p50 {statistics.median(v):6.3f} ms  ({statistics.median(v) / base:.2f}x {called})")


def main(folder: str, n: int, asked: int) -> None:
    data = KGData(data_files([Path(folder)]))
    facts = data.facts[:n]
    mem = fresh_tenant(data, facts, "asof-parts")
    try:
        data.restrict(facts)
        ask = Questions(data, facts, random.Random(11))
        driver, bookmarks, now = mem._driver, mem.bookmark_manager, instant(datetime.now(timezone.utc))
        as_of, as_written = queries.get("as_of").text, queries.get("as_of").source
        long_comment = "// " + "x" * (len(as_written) - len(as_of) - 4) + "\nRETURN 1"
        bare = bare_reader(mem)

        def managed(query: str) -> Any:
            return driver.execute_query(query, database_=mem.settings.database,
                                        routing_=neo4j.RoutingControl.READ, bookmark_manager_=bookmarks)

        ways: dict[str, Callable[[str, str, datetime], Any]] = {
            "mem.as_of": lambda s, r, t: mem.as_of(s, r, valid_at=t),
            "as_of.cypher, bare driver": lambda s, r, t: bare(as_of, {
                "tenant": mem.tenant, "subject": s, "topic": r, "env": "", "valid_at": instant(t), "known_at": now}),
            "as_of.cypher as written": lambda s, r, t: bare(as_written, {
                "tenant": mem.tenant, "subject": s, "topic": r, "env": "", "valid_at": instant(t), "known_at": now}),
            "one MATCH, bare driver": lambda s, r, t: bare(ONE_MATCH, {
                "tenant": mem.tenant, "subject": s, "topic": r, "valid_at": instant(t)}),
            "RETURN 1, bare driver": lambda s, r, t: bare("RETURN 1", {}),
            "RETURN 1 after a comment": lambda s, r, t: bare(long_comment, {}),
            "RETURN 1, execute_query": lambda s, r, t: managed("RETURN 1"),
        }
        # the first 200 rounds warm the plans up and are not counted
        report(interleave(ways, ask, asked, warm=200), "RETURN 1, bare driver", "RETURN 1")
    finally:
        mem.drop_tenant(batch=5_000)
        mem.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 60_000, int(sys.argv[3]) if len(sys.argv) > 3 else 3_000)
