"""Graphiti (the ``graphiti-core`` package) on graphmem's server, for ``graphmem bench graphiti``:
its driver pointed at the same database, its bulk save and its search, the node and edge objects
one run saves, and the clean-up that leaves the database as the run found it (Graphiti's nodes
deleted, the indexes it created dropped). Kept apart from the benchmark (graphmem.bench.
bench_graphiti) so that module reads as what is measured, this one as how Graphiti is driven.

Importing ``graphiti_core`` runs python-dotenv's ``load_dotenv()``, which adds the variables of a
``.env`` file it finds above the installed package to the process's environment (never
overriding one that is set); nothing here imports it until a run starts.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from datetime import datetime, timezone
from importlib import metadata
from typing import Any, Coroutine, TypeVar

from ..core.extras import require
from ..recall.embed import WordLlamaEmbedder
from ..store import queries
from ..store.client import GraphMem
from .temporal_kg import KGFact

__all__ = ["GraphitiSide", "drop_group", "drop_indexes", "index_names"]

T = TypeVar("T")

_CREATED_INDEX = re.compile(r"INDEX (\w+) IF NOT EXISTS")


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


class GraphitiSide:
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
        records, _, _ = store._driver.execute_query(queries.get("bench/database_name").text,
                                                    database_=settings.database)
        self.loop = asyncio.new_event_loop()
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
        self.names: dict[str, str] = {}  # and back: built by ready(), before the first search
        schema = require("graphiti", "graphiti_core.graph_queries")
        statements = schema.get_range_indices(self.driver.provider) + schema.get_fulltext_indices(self.driver.provider)
        #: the indexes Graphiti creates on this server (the only ones the bench may drop)
        self.index_names = {m.group(1) for q in statements if (m := _CREATED_INDEX.search(q))}

    def wait(self, work: Coroutine[Any, Any, T]) -> T:
        """Run one of Graphiti's coroutines to the end (its API is async; the bench is not)."""
        return self.loop.run_until_complete(work)

    def ready(self) -> None:
        """The name of each saved entity by uuid, for reading search results (built once, untimed)."""
        self.names = {v: name for (_, name), v in self.uuids.items()}

    def close(self) -> None:
        """Close Graphiti's driver and the event loop, cancelling whatever an interrupt left running."""
        try:
            for task in asyncio.all_tasks(self.loop):
                task.cancel()
            self.wait(self.driver.close())
        finally:
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
        """Graphiti's hybrid search, filtered to edges of this relation from this subject, valid at
        ``at`` (every filter its ``SearchFilters`` has for the question); the targets of the
        returned edges (its default ten results)."""
        f = self.filters
        start = self.uuids.get((self.group, subject), "")
        valid = f.SearchFilters(
            edge_types=[relation], edge_source_node_uuids=[start],
            valid_at=[[f.DateFilter(date=at, comparison_operator=f.ComparisonOperator.less_than_equal)]],
            invalid_at=[[f.DateFilter(date=at, comparison_operator=f.ComparisonOperator.greater_than)],
                        [f.DateFilter(comparison_operator=f.ComparisonOperator.is_null)]])
        edges = self.wait(self.graphiti.search(f"{subject} {relation}", group_ids=[self.group], search_filter=valid))
        return {self.names.get(e.target_node_uuid, "?") for e in edges if e.source_node_uuid == start}


def index_names(store: GraphMem) -> set[str]:
    """The database's index names: taken before the run, so the bench drops only what it added."""
    records, _, _ = store._driver.execute_query(queries.get("bench/index_names").text,
                                                database_=store.settings.database)
    return {r["name"] for r in records}


def drop_indexes(store: GraphMem, names: set[str]) -> None:
    """Drop these indexes (those Graphiti created during the run and had not been there before)."""
    for name in sorted(names):
        store._driver.execute_query(queries.get("bench/drop_index").text, {"name": name},
                                    database_=store.settings.database)


def drop_group(store: GraphMem, group: str, batch: int = 5_000) -> None:
    """Delete what the run saved through Graphiti under ``group``, a batch to a transaction."""
    drop = queries.get("bench/graphiti_drop").text
    while True:
        records, _, _ = store._driver.execute_query(drop, {"group": group, "batch": batch},
                                                    database_=store.settings.database)
        if not records or not records[0]["deleted"]:
            return
