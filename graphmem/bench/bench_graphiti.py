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
   object"), ``chunk`` edges to a transaction. Round by round, alternating which side goes first.
   Graphiti is given every advantage we could find: its node and edge objects are built, and
   their embeddings computed, before the clock starts (graphmem's ingest embeds nothing either);
b. **as-of**: for random (subject, relation, day) questions, four calls each, in rotating order:
   graphmem's ``as_of``; the hand-written Cypher a developer would run on Graphiti's schema
   (``cypher/bench/graphiti_as_of.cypher``, through graphmem's own driver and read path);
   Graphiti's search for "subject relation", filtered to that relation and to edges valid on the
   day (its ``SearchFilters``), the answer being the targets of the returned edges that start at
   the subject; and ``RETURN 1`` through graphmem's read path (the floor). p50/p99 of each and
   how many answers match the ground truth computed from the text files.

Both embed with graphmem's default embedder (wordllama, 256 dimensions) so the search leg costs
what it would cost a graphmem user. Community Neo4j has one user database, so both live in it:
each side's writes pay for the other's indexes on ``:Entity`` (Graphiti's range and full-text
indexes; graphmem's ``memory_text``). At the end the bench deletes Graphiti's nodes and drops the
indexes Graphiti created, leaving the database's schema as it found it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import platform
import random
import re
import time
import uuid
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Coroutine, TypeVar

import neo4j

from ..core.errors import ConfigurationError
from ..core.extras import require
from ..recall.embed import WordLlamaEmbedder
from ..store import queries
from ..store.client import GraphMem
from .kg_phases import AT, INGEST_WARMUP, percentile
from .kg_workload import KGData, Questions, chunks, data_files
from .temporal_kg import KGFact

__all__ = ["GOALS", "run", "table"]

Log = Callable[[str], None]
T = TypeVar("T")

#: the goals issue #18 set for this comparison (ratios: graphmem ÷ Graphiti)
GOALS = {"ingest_over_graphiti": ">= 2", "asof_over_graphiti_search": "<= 0.5", "asof_over_graphiti_cypher": "<= 1"}

_INDEX_NAME = re.compile(r"[A-Za-z0-9_]+")


def _embedder(base: type) -> Any:
    """Graphiti's ``EmbedderClient`` (``base``; Graphiti checks the type) over graphmem's default
    embedder, wordllama. ``inner`` is the graphmem embedder, for embedding outside Graphiti."""

    class Embedder(base):  # type: ignore[misc]  # base is only known once graphiti_core is imported
        def __init__(self) -> None:
            self.inner = WordLlamaEmbedder()

        async def create(self, input_data: Any) -> list[float]:
            texts = [input_data] if isinstance(input_data, str) else list(input_data)
            return self.inner.embed([str(t) for t in texts])[0]

        async def create_batch(self, input_data_list: list[str]) -> list[list[float]]:
            return self.inner.embed(input_data_list)

    return Embedder()


def _untracked(graphiti: type) -> type:
    """``Graphiti`` without the usage event it sends to PostHog when constructed (its only
    telemetry; graphmem never writes the environment variable that would turn it off), so no
    call leaves the benchmark."""

    class Untracked(graphiti):  # type: ignore[misc]  # known once graphiti_core is imported
        def _capture_initialization_telemetry(self) -> None:
            pass

    return Untracked


class _Graphiti:
    """Graphiti on graphmem's server: its driver, its search, and the objects the run saves."""

    def __init__(self, store: GraphMem, group: str) -> None:
        core = require("graphiti", "graphiti_core")
        self.version = metadata.version("graphiti-core")
        self.nodes_mod = require("graphiti", "graphiti_core.nodes")
        self.edges_mod = require("graphiti", "graphiti_core.edges")
        self.bulk = require("graphiti", "graphiti_core.utils.bulk_utils")
        self.filters = require("graphiti", "graphiti_core.search.search_filters")
        llm = require("graphiti", "graphiti_core.llm_client")
        rerank = require("graphiti", "graphiti_core.cross_encoder.openai_reranker_client")
        driver_mod = require("graphiti", "graphiti_core.driver.neo4j_driver")
        settings = store.settings
        user, password = settings.auth or (settings.user, None)
        self.loop = asyncio.new_event_loop()
        records, _, _ = store._driver.execute_query(queries.get("bench/database_name").text,
                                                    database_=settings.database)
        self.driver = driver_mod.Neo4jDriver(settings.uri, user, password, database=records[0]["name"])
        self.embedder = _embedder(require("graphiti", "graphiti_core.embedder.client").EmbedderClient)
        # The LLM and reranker clients are required arguments but never called: nothing here
        # extracts or reranks with a model (a key that cannot work, so a call would fail loudly).
        unused = llm.LLMConfig(api_key="graphmem-bench-no-llm-calls")
        self.graphiti = _untracked(core.Graphiti)(graph_driver=self.driver, embedder=self.embedder,
                                                  llm_client=llm.OpenAIClient(config=unused),
                                                  cross_encoder=rerank.OpenAIRerankerClient(config=unused))
        self.group = group
        self.uuids: dict[tuple[str, str], str] = {}  # (group, name) → the entity's uuid
        self.names: dict[str, str] = {}  # and back, built once, before the first search

    def wait(self, work: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(work)

    def close(self) -> None:
        self.wait(self.driver.close())
        self.loop.close()

    def objects(self, part: list[KGFact], group: str) -> tuple[list[Any], list[Any]]:
        """The entity nodes first named in ``part`` and an edge per fact, embeddings computed."""
        created = datetime.now(timezone.utc)
        ids = self.uuids
        names = [n for n in dict.fromkeys(x for f in part for x in (f.subject, f.object)) if (group, n) not in ids]
        for name in names:
            ids[group, name] = str(uuid.uuid4())
        name_vectors = self.embedder.inner.embed(names) if names else []
        nodes = [self.nodes_mod.EntityNode(uuid=ids[group, n], name=n, group_id=group, labels=["Entity"],
                                           summary="", created_at=created, name_embedding=v)
                 for n, v in zip(names, name_vectors)]
        texts = [f"{f.subject} {f.relation} {f.object}" for f in part]
        fact_vectors = self.embedder.inner.embed(texts)
        edges = [self.edges_mod.EntityEdge(uuid=str(uuid.uuid4()), group_id=group,
                                           source_node_uuid=ids[group, f.subject],
                                           target_node_uuid=ids[group, f.object], name=f.relation, fact=text,
                                           fact_embedding=v, episodes=[], created_at=created,
                                           valid_at=f.valid_from, invalid_at=f.valid_to)
                 for f, text, v in zip(part, texts, fact_vectors)]
        return nodes, edges

    def save(self, nodes: list[Any], edges: list[Any]) -> None:
        self.wait(self.bulk.add_nodes_and_edges_bulk(self.driver, [], [], nodes, edges, self.embedder))

    def search(self, subject: str, relation: str, at: datetime) -> set[str]:
        """Graphiti's hybrid search, filtered to the relation and to edges valid at ``at``; the
        targets of the returned edges that start at the subject."""
        f = self.filters
        valid = f.SearchFilters(
            edge_types=[relation],
            valid_at=[[f.DateFilter(date=at, comparison_operator=f.ComparisonOperator.less_than_equal)]],
            invalid_at=[[f.DateFilter(date=at, comparison_operator=f.ComparisonOperator.greater_than)],
                        [f.DateFilter(comparison_operator=f.ComparisonOperator.is_null)]])
        edges = self.wait(self.graphiti.search(f"{subject} {relation}", group_ids=[self.group], search_filter=valid))
        if len(self.names) != len(self.uuids):
            self.names = {v: name for (_, name), v in self.uuids.items()}
        start = self.uuids.get((self.group, subject))
        return {self.names.get(e.target_node_uuid, "?") for e in edges if e.source_node_uuid == start}


def _index_names(store: GraphMem) -> set[str]:
    records, _, _ = store._driver.execute_query(queries.get("bench/index_names").text,
                                                database_=store.settings.database)
    return {r["name"] for r in records}


def _drop_indexes(store: GraphMem, names: set[str]) -> None:
    """Drop the indexes Graphiti created. An index's name cannot be a parameter; these come from
    the server's own ``SHOW INDEXES`` and are checked to be plain identifiers before use."""
    for name in sorted(names):
        if not _INDEX_NAME.fullmatch(name):
            raise ConfigurationError(f"unexpected index name from SHOW INDEXES: {name!r}")
        store._driver.execute_query(f"DROP INDEX `{name}` IF EXISTS",
                                    database_=store.settings.database)


def _drop_group(store: GraphMem, group: str, batch: int = 5_000) -> None:
    drop = queries.get("bench/graphiti_drop").text
    while True:
        records, _, _ = store._driver.execute_query(drop, {"group": group, "batch": batch},
                                                    database_=store.settings.database)
        if not records or not records[0]["deleted"]:
            return


def _ingest(mem: GraphMem, g: _Graphiti, group: str, facts: list[KGFact], call: int, chunk: int, batch: int,
            log: Log) -> dict[str, Any]:
    """Both sides load ``facts``, a round (about ``call`` facts) at a time, alternating which goes
    first; each side's seconds are summed over its own calls only."""
    graphmem_s = graphiti_s = 0.0
    done = 0
    for i, (_, part) in enumerate(chunks(facts, len(facts), call)):
        events = [dict(f.event(), recorded_at=AT.isoformat()) for f in part]
        prepared = [g.objects(part[lo:lo + chunk], group) for lo in range(0, len(part), chunk)]  # untimed
        for side in ((0, 1) if i % 2 == 0 else (1, 0)):
            t0 = time.perf_counter()
            if side == 0:
                mem.apply_bulk(events, batch_size=batch)
                graphmem_s += time.perf_counter() - t0
            else:
                for nodes, edges in prepared:
                    g.save(nodes, edges)
                graphiti_s += time.perf_counter() - t0
        done += len(part)
        log(f"ingested {done:,}/{len(facts):,} facts (graphmem {done / graphmem_s:,.0f}/s, "
            f"Graphiti {done / graphiti_s:,.0f}/s)")
    ours, theirs = len(facts) / graphmem_s, len(facts) / graphiti_s
    return {"graphmem_ingest_facts_per_s": round(ours, 1), "graphiti_save_facts_per_s": round(theirs, 1),
            "ingest_over_graphiti": round(ours / theirs, 2)}


def _asof(store: GraphMem, mem: GraphMem, g: _Graphiti, data: KGData, ask: Questions, lookups: int,
          log: Log) -> dict[str, Any]:
    """``lookups`` questions, each asked four ways in rotating order (see the module docstring)."""
    cypher = queries.get("bench/graphiti_as_of").text
    db = store.settings.database

    def by_cypher(s: str, r: str, t: datetime) -> set[str]:
        records, _, _ = store._driver.execute_query(cypher, {"subject": s, "relation": r, "at": t, "group": g.group},
                                                    database_=db, routing_=neo4j.RoutingControl.READ)
        return {rec["value"] for rec in records}

    ways: dict[str, Callable[[str, str, datetime], Any]] = {
        "graphmem": lambda s, r, t: set(mem.as_of(s, r, valid_at=t).values or []),
        "graphiti_cypher": by_cypher,
        "graphiti_search": g.search,
        "floor": lambda s, r, t: mem.round_trip(),
    }
    times: dict[str, list[float]] = {k: [] for k in ways}
    correct = {k: 0 for k in ways if k != "floor"}
    wrong: dict[str, list[str]] = {k: [] for k in correct}
    order = list(ways)
    for i in range(lookups):
        s, r, t = ask()
        want = data.expected(s, r, t)
        for k in order[i % 4:] + order[:i % 4]:
            t0 = time.perf_counter()
            got = ways[k](s, r, t)
            times[k].append((time.perf_counter() - t0) * 1000)
            if k in correct:
                if got == want:
                    correct[k] += 1
                elif len(wrong[k]) < 3:
                    wrong[k].append(f"{s} {r} @ {t.date()}: expected {sorted(want)} got {sorted(got)}")
        if (i + 1) % max(1, lookups // 5) == 0:
            log(f"as-of: {i + 1:,}/{lookups:,} questions")
    p50 = {k: percentile(v, 50) for k, v in times.items()}
    out: dict[str, Any] = {"lookups": lookups}
    for k, v in times.items():
        out[f"{k}_p50_ms"], out[f"{k}_p99_ms"] = round(p50[k], 3), round(percentile(v, 99), 3)
    for k in correct:
        out[f"{k}_correct"] = correct[k]
    out["wrong_examples"] = {k: v for k, v in wrong.items() if v}
    out["asof_over_floor"] = round(p50["graphmem"] / p50["floor"], 2)
    out["asof_over_graphiti_cypher"] = round(p50["graphmem"] / p50["graphiti_cypher"], 2)
    out["asof_over_graphiti_search"] = round(p50["graphmem"] / p50["graphiti_search"], 3)
    return out


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
    before = _index_names(store)
    g = _Graphiti(store, prefix)
    # The driver logs a warning per search (Graphiti's queries name a property its edges lack here)
    quiet = logging.getLogger("neo4j.notifications")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        g.wait(g.driver.build_indices_and_constraints())
        store._driver.execute_query(queries.get("bench/await_indexes").text, database_=store.settings.database)
        for tenant in (mem, warm):
            tenant.apply_bulk([{"op": "topic", "name": r, "cardinality": "many"} for r in data.relations])
        if warmup > 0:
            got = _ingest(warm, g, warm.tenant, data.facts[:min(warmup, len(data.facts))], call, chunk, batch,
                          lambda line: None)
            log(f"warm-up, untimed: {min(warmup, len(data.facts)):,} facts (graphmem "
                f"{got['graphmem_ingest_facts_per_s']:,.0f}/s, Graphiti {got['graphiti_save_facts_per_s']:,.0f}/s)")
        ingested = _ingest(mem, g, prefix, loaded, call, chunk, batch, log)
        data.restrict(loaded)
        ask = Questions(data, loaded, random.Random(seed))
        _asof(store, mem, g, data, ask, asof_warmup, lambda line: None)
        asked = _asof(store, mem, g, data, ask, lookups, log)
    finally:
        quiet.setLevel(level)
        g.close()
        for tenant in (mem, warm):
            tenant.drop_tenant(batch=5_000)
            _drop_group(store, tenant.tenant)
        _drop_indexes(store, _index_names(store) - before)
    entities = sum(1 for group, _ in g.uuids if group == prefix)
    return {"facts": facts, "entities": entities, **ingested, **asked, "goals": GOALS,
            "graphiti_core": g.version, "embedder": "wordllama (256 dimensions), both sides",
            "ingest_warmup_facts": min(warmup, len(data.facts)), "ingest_call": call, "graphiti_chunk": chunk,
            "ingest_batch": batch, "asof_warmup": asof_warmup,
            "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
                        "server": store.ping(), "uri": store.settings.uri.split("@")[-1]},
            "when": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def table(d: dict[str, Any]) -> str:
    """The result as the terminal shows it: each figure with its ratio and the issue's goal."""
    n = d["lookups"]
    rows = [("facts", f"{d['facts']:,} ({d['entities']:,} entities)"),
            ("ingest", f"graphmem {d['graphmem_ingest_facts_per_s']:,.0f} facts/s, Graphiti bulk save "
                       f"{d['graphiti_save_facts_per_s']:,.0f}: {d['ingest_over_graphiti']:.2f}x (goal >= 2)"),
            ("as-of p50 / p99", f"graphmem {d['graphmem_p50_ms']:.2f} / {d['graphmem_p99_ms']:.2f} ms, "
                                f"{d['graphmem_correct']}/{n} correct"),
            ("  Graphiti, Cypher", f"{d['graphiti_cypher_p50_ms']:.2f} / {d['graphiti_cypher_p99_ms']:.2f} ms, "
                                   f"{d['graphiti_cypher_correct']}/{n} correct: graphmem ÷ it "
                                   f"{d['asof_over_graphiti_cypher']:.2f} (goal <= 1)"),
            ("  Graphiti, search", f"{d['graphiti_search_p50_ms']:.2f} / {d['graphiti_search_p99_ms']:.2f} ms, "
                                   f"{d['graphiti_search_correct']}/{n} correct: graphmem ÷ it "
                                   f"{d['asof_over_graphiti_search']:.3f} (goal <= 0.5)"),
            ("  floor (RETURN 1)", f"{d['floor_p50_ms']:.2f} ms: as_of ÷ floor {d['asof_over_floor']:.2f}")]
    width = max(len(r[0]) for r in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)
