"""``graphmem bench graphiti``: graphmem beside Graphiti (the ``graphiti-core`` package) on the same
temporal facts, on the same Neo4j server, in one run. A benchmark, never a timed test.

Graphiti builds its graph with an LLM; with no LLM it can still save nodes and edges one has built
(``graphiti_core.utils.bulk_utils.add_nodes_and_edges_bulk``), and it answers questions with its
hybrid search (BM25 over edge facts plus cosine similarity over their embeddings, merged by
reciprocal rank, ``Graphiti.search``). This compares, on the first ``facts`` facts of the temporal
KG ``graphmem bench`` loads (TILP's YAGO11k and WIKIDATA12k, or the sample in tests/data):

a. **ingest**: graphmem's ``apply_bulk`` (ledger events and projection, as ``graphmem bench``
   times it) against Graphiti's bulk save of the same facts as ``Entity`` nodes and ``RELATES_TO``
   edges (``valid_at`` / ``invalid_at`` set from the interval, ``fact`` as "subject relation
   object"), ``chunk`` edges to a transaction, and against ``graphmem bench``'s raw limit (the
   nodes and edges graphmem writes, in one hand-written ``UNWIND … CREATE``): raw ÷ Graphiti is
   the most ingest ÷ Graphiti could be without writing less. Round by round, in a new random order.
   Graphiti is given every advantage we could find: its node and edge objects are built, and
   their embeddings computed, before the clock starts (graphmem's ingest embeds nothing either);
b. **as-of**: for random (subject, relation, day) questions, five calls each, in a new random order
   for every question (rotating would keep the cycle: each way would always follow the same
   other, and a call right after a heavier read is slower, docs/scaling.md):
   graphmem's ``as_of``; the hand-written Cypher a developer would run on Graphiti's schema
   (``cypher/bench/graphiti_as_of.cypher``), sent twice with graphmem's driver: as a managed
   transaction (``execute_query``, how Graphiti's own driver sends its queries) and as an
   auto-commit transaction in a READ session (how graphmem sends its reads: one round trip
   instead of two, graphmem.store.api); Graphiti's search for "subject relation", filtered to
   edges of that relation from that subject valid on the day (every filter its ``SearchFilters``
   has for the question), the answer being the targets of the edges it returns; and ``RETURN 1``
   through graphmem's read path (the floor). p50/p99 of each and how many answers match the
   ground truth computed from the text files, over all questions and over those with a non-empty
   answer.

Graphiti's vectors, and its search's query vector, come from graphmem's default embedder
(wordllama, 256 dimensions); graphmem's as-of reads embed nothing. How Graphiti is driven (and
what importing it does to the environment): graphmem.bench.graphiti_side. Community Neo4j has
one user database, so both live in it: each side's writes pay for the other's indexes on
``:Entity`` (Graphiti's range and full-text indexes; graphmem's ``memory_text``). At the end the
bench deletes Graphiti's nodes and drops the indexes Graphiti created, leaving the database's
schema as it found it.
"""

from __future__ import annotations

import logging
import os
import platform
import random
import time
import uuid
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Any, Callable

import neo4j

from ..core.errors import ConfigurationError
from ..store import queries
from ..store.client import GraphMem
from .graphiti_side import GraphitiSide, drop_group, drop_indexes, index_names
from .kg_phases import AT, INGEST_WARMUP, percentile, raw_rows, raw_write
from .kg_workload import KGData, Questions, chunks, data_files
from .temporal_kg import KGFact

__all__ = ["GOALS", "run", "table"]

Log = Callable[[str], None]

#: the goals issue #18 set for this comparison (ratios: graphmem ÷ Graphiti)
GOALS = {"ingest_over_graphiti": ">= 2", "asof_over_graphiti_search": "<= 0.5", "asof_over_graphiti_cypher": "<= 1"}


def _ingest(mem: GraphMem, g: GraphitiSide, group: str, facts: list[KGFact], call: int, chunk: int, batch: int,
            log: Log) -> dict[str, Any]:
    """The three sides load ``facts``, a round (about ``call`` facts) at a time, in a new random
    order every round; each side's seconds are summed over its own calls only. The third is
    ``graphmem bench``'s raw limit (``bench/raw_create``: graphmem's nodes and edges in one
    hand-written ``UNWIND … CREATE``, ``chunk`` rows to a transaction, into a tenant of its own),
    so the run also says how far graphmem could go: raw ÷ Graphiti is the most ingest ÷ Graphiti
    can be while graphmem writes what it writes."""
    seconds = dict.fromkeys(("graphmem", "graphiti", "raw"), 0.0)
    raw_create, raw_tenant = queries.get("bench/raw_create").text, f"{group}-raw"
    order, shuffle = list(seconds), random.Random(11).shuffle
    done = 0
    for replica, part in chunks(facts, len(facts), call):
        events = [dict(f.event(), recorded_at=AT.isoformat()) for f in part]
        prepared = [g.objects(part[lo:lo + chunk], group) for lo in range(0, len(part), chunk)]  # untimed
        rows = raw_rows(part, events, replica, done)  # untimed
        shuffle(order)
        for side in order:
            t0 = time.perf_counter()
            if side == "graphmem":
                mem.apply_bulk(events, batch_size=batch)
            elif side == "graphiti":
                for nodes, edges in prepared:
                    g.save(nodes, edges)
            else:
                for lo in range(0, len(rows), chunk):
                    raw_write(mem, raw_create, rows[lo:lo + chunk], raw_tenant)
            seconds[side] += time.perf_counter() - t0
        done += len(part)
        rates = {k: done / v for k, v in seconds.items()}
        log(f"ingested {done:,}/{len(facts):,} facts (graphmem {rates['graphmem']:,.0f}/s, "
            f"Graphiti {rates['graphiti']:,.0f}/s, raw {rates['raw']:,.0f}/s)")
    ours, theirs, raw = (len(facts) / seconds[k] for k in ("graphmem", "graphiti", "raw"))
    return {"graphmem_ingest_facts_per_s": round(ours, 1), "graphiti_save_facts_per_s": round(theirs, 1),
            "raw_facts_per_s": round(raw, 1), "ingest_over_graphiti": round(ours / theirs, 2),
            "ingest_over_raw": round(ours / raw, 3), "raw_over_graphiti": round(raw / theirs, 2)}


def _ways(store: GraphMem, mem: GraphMem, g: GraphitiSide) -> dict[str, Callable[[str, str, datetime], Any]]:
    """The five ways an as-of question is asked (the module docstring), each a function of
    (subject, relation, day) that returns the answer as a set of values."""
    cypher = queries.get("bench/graphiti_as_of").text
    db = store.settings.database

    def by_cypher(s: str, r: str, t: datetime) -> set[str]:
        # a managed transaction (execute_query), the way Graphiti's own driver sends its queries
        records, _, _ = store._driver.execute_query(cypher, {"subject": s, "relation": r, "at": t, "group": g.group},
                                                    database_=db, routing_=neo4j.RoutingControl.READ)
        return {rec["value"] for rec in records}

    def by_cypher_autocommit(s: str, r: str, t: datetime) -> set[str]:
        # through graphmem's own read (GraphMem._read: an auto-commit transaction in a READ session)
        return {rec["value"] for rec in store._read(cypher, {"subject": s, "relation": r, "at": t, "group": g.group})}

    ways: dict[str, Callable[[str, str, datetime], Any]] = {
        "graphmem": lambda s, r, t: set(mem.as_of(s, r, valid_at=t).values or []),
        "graphiti_cypher": by_cypher,
        "graphiti_cypher_autocommit": by_cypher_autocommit,
        "graphiti_search": g.search,
        "floor": lambda s, r, t: mem.round_trip(),  # RETURN 1 through graphmem's read path
    }
    return ways


def _asof(store: GraphMem, mem: GraphMem, g: GraphitiSide, data: KGData, ask: Questions, lookups: int,
          log: Log) -> dict[str, Any]:
    """``lookups`` questions, each asked five ways in a new random order (see the module docstring).
    Correct answers are counted over all questions and over those whose answer is not empty
    (about a third of the questions fall outside every interval: an empty reply gets them right)."""
    ways = _ways(store, mem, g)
    times: dict[str, list[float]] = {k: [] for k in ways}
    correct = {k: 0 for k in ways if k != "floor"}
    answered = dict.fromkeys(correct, 0)
    with_answer = 0
    wrong: dict[str, list[str]] = {k: [] for k in correct}
    order, shuffle = list(ways), random.Random(5).shuffle
    for i in range(lookups):
        s, r, t = ask()
        want = data.expected(s, r, t)
        with_answer += bool(want)
        shuffle(order)
        for k in order:
            t0 = time.perf_counter()
            got = ways[k](s, r, t)
            times[k].append((time.perf_counter() - t0) * 1000)
            if k in correct:
                if got == want:
                    correct[k] += 1
                    answered[k] += bool(want)
                elif len(wrong[k]) < 3:
                    wrong[k].append(f"{s} {r} @ {t.date()}: expected {sorted(want)} got {sorted(got)}")
        if (i + 1) % max(1, lookups // 5) == 0:
            log(f"as-of: {i + 1:,}/{lookups:,} questions")
    p50 = {k: percentile(v, 50) for k, v in times.items()}
    out: dict[str, Any] = {"lookups": lookups}
    for k, v in times.items():
        out[f"{k}_p50_ms"], out[f"{k}_p99_ms"] = round(p50[k], 3), round(percentile(v, 99), 3)
    out["questions_with_an_answer"] = with_answer
    for k in correct:
        out[f"{k}_correct"], out[f"{k}_correct_with_an_answer"] = correct[k], answered[k]
    out["wrong_examples"] = {k: v for k, v in wrong.items() if v}
    out["asof_over_floor"] = round(p50["graphmem"] / p50["floor"], 2)
    out["asof_over_graphiti_cypher"] = round(p50["graphmem"] / p50["graphiti_cypher"], 2)
    out["asof_over_graphiti_cypher_autocommit"] = round(p50["graphmem"] / p50["graphiti_cypher_autocommit"], 2)
    out["asof_over_graphiti_search"] = round(p50["graphmem"] / p50["graphiti_search"], 3)
    return out


def _run_all(steps: list[Callable[[], Any]]) -> None:
    """Run every step even if some fail; then raise the first failure."""
    failed: BaseException | None = None
    for step in steps:
        try:
            step()
        except Exception as e:  # noqa: BLE001 - the rest of the clean-up still runs
            failed = failed or e
    if failed is not None:
        raise failed


def run(store: GraphMem, *, facts: int = 60_000, files: list[Path] | None = None, lookups: int = 1_000,
        call: int = 20_000, chunk: int = 5_000, batch: int = 1_000, warmup: int = INGEST_WARMUP,
        asof_warmup: int = 50, seed: int = 7, log: Log = lambda s: None) -> dict[str, Any]:
    """The comparison at ``facts`` facts (at most the data's distinct facts: Graphiti gets no
    replicas). First each side loads ``warmup`` facts untimed into a tenant/group of its own (a
    fresh server runs either side's queries cold), and ``asof_warmup`` questions are asked untimed.
    Everything the run wrote is removed afterwards, Graphiti's indexes too."""
    data = KGData(data_files(files))
    if not 0 < facts <= len(data.facts):
        raise ConfigurationError(f"--facts must be between 1 and the {len(data.facts):,} distinct facts in the data")
    loaded = data.facts[:facts]
    prefix = f"bench-graphiti-{uuid.uuid4().hex[:6]}"
    mem, warm = store.for_tenant(prefix), store.for_tenant(f"{prefix}-warmup")
    before = index_names(store)
    warm_n = min(warmup, facts)
    g: GraphitiSide | None = None
    # The driver logs a warning per search (Graphiti's queries name a property its edges lack here)
    quiet = logging.getLogger("neo4j.notifications")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        g = GraphitiSide(store, prefix)
        g.wait(g.driver.build_indices_and_constraints())
        store._driver.execute_query(queries.get("bench/await_indexes").text, database_=store.settings.database)
        for tenant in (mem, warm):
            tenant.apply_bulk([{"op": "topic", "name": r, "cardinality": "many"} for r in data.relations])
        if warm_n > 0:
            got = _ingest(warm, g, warm.tenant, data.facts[:warm_n], call, chunk, batch, lambda line: None)
            log(f"warm-up, untimed: {warm_n:,} facts (graphmem "
                f"{got['graphmem_ingest_facts_per_s']:,.0f}/s, Graphiti {got['graphiti_save_facts_per_s']:,.0f}/s)")
        ingested = _ingest(mem, g, prefix, loaded, call, chunk, batch, log)
        g.ready()
        data.restrict(loaded)
        ask = Questions(data, loaded, random.Random(seed))
        _asof(store, mem, g, data, ask, asof_warmup, lambda line: None)
        asked = _asof(store, mem, g, data, ask, lookups, log)
    finally:
        # Each step on its own, so one that fails leaves the others done; the first clean-up error
        # is raised (Python chains it to the run's own error, if the run failed).
        quiet.setLevel(level)
        created = g.index_names if g is not None else set()
        steps: list[Callable[[], Any]] = [g.close] if g is not None else []
        steps += [partial(t.drop_tenant, batch=5_000) for t in (mem, warm)]
        steps += [partial(store.for_tenant(f"{t.tenant}-raw").drop_tenant, batch=5_000) for t in (mem, warm)]
        steps += [partial(drop_group, store, t.tenant) for t in (mem, warm)]
        steps.append(lambda: drop_indexes(store, (index_names(store) - before) & created))
        _run_all(steps)
    entities = sum(1 for group, _ in g.uuids if group == prefix)
    return {"facts": facts, "entities": entities, **ingested, **asked, "goals": GOALS,
            "graphiti_core": g.version, "embedder": "wordllama (256 dimensions): Graphiti's vectors and queries",
            "ingest_warmup_facts": warm_n, "ingest_call": call, "graphiti_chunk": chunk,
            "ingest_batch": batch, "asof_warmup": asof_warmup,
            "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
                        "server": store.ping(), "uri": store.settings.uri.split("@")[-1]},
            "when": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def table(d: dict[str, Any]) -> str:
    """The result as the terminal shows it: each figure with its ratio and the issue's goal."""
    n, some = d["lookups"], d["questions_with_an_answer"]

    def right(side: str) -> str:
        return f"{d[side + '_correct']}/{n} ({d[side + '_correct_with_an_answer']}/{some} with an answer)"

    rows = [("facts", f"{d['facts']:,} ({d['entities']:,} entities)"),
            ("ingest", f"graphmem {d['graphmem_ingest_facts_per_s']:,.0f} facts/s, Graphiti bulk save "
                       f"{d['graphiti_save_facts_per_s']:,.0f}: {d['ingest_over_graphiti']:.2f}x "
                       f"(goal {GOALS['ingest_over_graphiti']})"),
            ("  raw limit", f"{d['raw_facts_per_s']:,.0f} facts/s (graphmem's writes, hand-written): graphmem ÷ it "
                            f"{d['ingest_over_raw']:.2f}, it ÷ Graphiti {d['raw_over_graphiti']:.2f}"),
            ("as-of p50 / p99", f"graphmem {d['graphmem_p50_ms']:.2f} / {d['graphmem_p99_ms']:.2f} ms, "
                                f"{right('graphmem')} correct"),
            ("  Graphiti, Cypher", f"{d['graphiti_cypher_p50_ms']:.2f} / {d['graphiti_cypher_p99_ms']:.2f} ms, "
                                   f"{right('graphiti_cypher')} correct: graphmem ÷ it "
                                   f"{d['asof_over_graphiti_cypher']:.2f} (goal {GOALS['asof_over_graphiti_cypher']})"),
            ("  the same, auto-commit", f"{d['graphiti_cypher_autocommit_p50_ms']:.2f} / "
                                        f"{d['graphiti_cypher_autocommit_p99_ms']:.2f} ms, "
                                        f"{right('graphiti_cypher_autocommit')} correct: graphmem ÷ it "
                                        f"{d['asof_over_graphiti_cypher_autocommit']:.2f}"),
            ("  Graphiti, search", f"{d['graphiti_search_p50_ms']:.2f} / {d['graphiti_search_p99_ms']:.2f} ms, "
                                   f"{right('graphiti_search')} correct: graphmem ÷ it "
                                   f"{d['asof_over_graphiti_search']:.3f} (goal {GOALS['asof_over_graphiti_search']})"),
            ("  RETURN 1", f"{d['floor_p50_ms']:.2f} ms through graphmem's read path: as_of ÷ it "
                           f"{d['asof_over_floor']:.2f}")]
    width = max(len(r[0]) for r in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)
