"""The vector legs' side of recall: embeddings are derived copies, caught up with the ledger just
before a vector query (:func:`embed_pending`), in indexes created for the embedder's dimension on
first use; the legs ask a shared index for as many hits as the tenant's share of it needs
(:func:`vector_k`), and answer by an exact scan of the tenant's own vectors when that is not
enough or a scan costs less (:func:`scan_first`; docs/governance.md, "Tenants")."""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from ..core.errors import ConfigurationError
from ..store.ops import Plan, Tx, run_query
from ..store.queries import Call, Steps

__all__ = ["CATCH_UP", "DEEP", "DEEP_MOST", "EMBED_PAGE", "FACT_OVERSAMPLE", "MAX_VECTOR_HITS", "SCAN_UP_TO",
           "deep_k", "embed_pending", "ensure_vector_index", "scan_first", "task_vector", "vector_k", "vector_leg"]

MAX_VECTOR_HITS = 100
FACT_OVERSAMPLE = 10  # the most the fact vector leg asks a shared index for, in multiples of its limit
# Embeddings written a transaction. A write transaction of many vectors leaves a Lucene segment in
# a vector index, Neo4j 5 merges a vector index's segments only 50 of a size at a time, and every
# search visits every segment: the same 161,039 vectors written 1,000 a transaction left 24 + 62
# segments and a k=40 search took ~13 ms; written 10,000 a transaction, 6 + 10 segments and
# 4.6-5.2 ms (docs/recall.md, "How the vectors are written").
EMBED_PAGE = 10_000
CATCH_UP = 5_000  # the most a context() embeds before it searches, in one transaction
# How a vector leg stays exact for the tenant beside other tenants' vectors (docs/recall.md, "Exact
# for the tenant"; measured on one 2-core host, load 5-7). Scoring a tenant's own vectors one by one
# reads each 256-float vector from the store: ~11 us a vector (1,000: 11 ms; 10,000: 108 ms; 20,000:
# 233 ms). The index costs ~3 ms for 40 hits, ~4-7 ms for 800, ~9 ms for 5,000, ~27 ms for 10,000
# (~2.7 us a hit). So: a tenant of at most SCAN_UP_TO vectors is scanned at once (no slower than
# the index, and exact); a larger one asks the index (vector_k hits); when those hold fewer than
# the leg's k of the tenant's, the index is asked DEEP times deeper (at most DEEP_MOST), unless
# scanning the tenant costs less than that; only when that is short too is the tenant scanned.
SCAN_UP_TO = 200
DEEP = 10
DEEP_MOST = 10_000
_SCAN_PER_HIT = 4  # a vector scanned costs about four index hits (11 us against 2.7 us)


def _text(row: dict[str, Any]) -> str:
    if row["label"] == "Source":
        # Who said it is part of what it means: "Caroline: I went to a support group" is near
        # "When did Caroline go to the support group?" (LoCoMo dev: 0.47 -> 0.63 recall alone).
        return f"{row['author']}: {row['text'] or ''}" if row.get("author") else row["text"] or ""
    return " ".join(str(x) for x in (row["subject"], row["topic"].replace("_", " "), row["value"], row["evidence"])
                    if x)


def ensure_vector_index(tenant: str, dimensions: int) -> Plan[None]:
    """Create the fact and source vector indexes for this embedder's dimension, once."""
    rows = yield from run_query("recall/vector_index_info", tenant)
    have = {r["name"]: r["dimensions"] for r in rows}
    for index in ("fact_embedding", "source_embedding"):
        if have.get(index) not in (None, dimensions):
            raise ConfigurationError(f"the {index} index has {have[index]} dimensions, the embedder {dimensions}: "
                                     f"drop it (DROP INDEX {index}) to switch embedders")
    if "fact_embedding" not in have:
        yield Tx(partial(_create_index, Call("recall/vector_index_facts", {"dimensions": dimensions})), "vector index")
    if "source_embedding" not in have:
        yield Tx(partial(_create_index, Call("recall/vector_index_sources", {"dimensions": dimensions})),
                 "vector index")


def _create_index(call: Call) -> Steps[None]:
    yield call


def embed_pending(tenant: str, embedder: Any, *, limit: int = EMBED_PAGE, rounds: int = 1,
                  settle_to: int | None = None) -> Plan[int]:
    """Embed the facts and sources written since the embeddings were last brought up to date, at
    most ``rounds`` pages of ``limit``, a page a transaction (:data:`EMBED_PAGE`: why pages are
    large); how many were embedded.

    ``settle_to``: a ledger head read *before* this call. When the pages run out, every event up to
    it has been looked at, so the state may claim it even when its last events wrote nothing to
    embed (a confirm, an expiry) — otherwise each context() would look again for nothing."""
    done, _ = yield from _embed_pages(tenant, embedder, limit, rounds, settle_to)
    return done


def _embed_pages(tenant: str, embedder: Any, limit: int, rounds: int,
                 settle_to: int | None) -> Plan[tuple[int, bool]]:
    """:func:`embed_pending`, and whether its last page was full (more may be pending)."""
    done, full = 0, False
    for _ in range(rounds):
        rows = yield from run_query("recall/embed_pending", tenant, limit=limit)
        full = len(rows) >= limit
        if rows and rows[0]["embedder"] not in (None, embedder.name):
            raise ConfigurationError(f"tenant {tenant!r} was embedded with {rows[0]['embedder']!r}, not "
                                     f"{embedder.name!r}: rebuild the tenant to switch embedders")
        if not rows:
            if settle_to:
                yield Tx(lambda: run_query("recall/embed_write", tenant, facts=[], sources=[], seq=settle_to,
                                       embedder=embedder.name), "recall/embed_write")
            break
        vectors = embedder.embed([_text(r) for r in rows])
        facts = [{"uid": r["uid"], "vector": v} for r, v in zip(rows, vectors) if r["label"] == "Fact"]
        sources = [{"uid": r["uid"], "vector": v} for r, v in zip(rows, vectors) if r["label"] == "Source"]
        # One event can write several facts (a message): when the page is full, its last sequence
        # number may be incomplete, so the state only claims the one before (its rows come again).
        last = rows[-1]["seq"]
        covered = last if not full or rows[0]["seq"] == last else last - 1
        if not full and settle_to:
            covered = max(covered, settle_to)
        yield Tx(lambda: run_query("recall/embed_write", tenant, facts=facts, sources=sources, seq=covered,
                               embedder=embedder.name), "recall/embed_write")
        done += len(rows) if covered >= last else sum(1 for r in rows if r["seq"] < last)
        if not full:
            break
    return done, full


def vector_k(limit: int, oversample: int, mine: int | None, everyone: int | None) -> int:
    """How many hits to ask a vector index for, so that about ``limit`` of them are the tenant's.

    The fact and source indexes span tenants (Neo4j 5 cannot filter inside a vector search), so
    the search is asked for more and the hits are filtered. How much more follows the tenant's
    share of the index — its own vectors (its EmbeddingState counts them) over the index's
    population (``recall/begin``: the same counts when the tenant's state is the database's only
    one, else the label's size, which can only run high): ``limit ÷ share`` hits hold ``limit`` of the tenant's on
    average, and a margin of ``limit × (1 − share) ÷ share`` more, since near neighbours need not
    be spread evenly — the more of the index is other tenants', the more of them can crowd the
    nearest; a tenant alone in the index needs no margin. Never more than ``limit * oversample``
    (the fixed oversample this replaces). The search is most of context()'s time, and it grows
    with k (docs/recall.md). Unknown counts (a state written before they were kept) ask for the
    most."""
    most = limit * oversample
    if not mine or not everyone:
        return most
    share = min(1.0, mine / everyone)
    return min(most, math.ceil(limit * (2 - share) / share))


def scan_first(mine: int | None) -> bool:
    """Whether a vector leg scores the tenant's own ``mine`` vectors one by one rather than asking
    the shared index first. Both are exact for the tenant (the index path falls back to the scan
    when other tenants' vectors crowd out the tenant's, in the .cypher files); this only picks the
    cheaper start. Unknown counts (a state written before they were kept) ask the index first."""
    return mine is not None and mine <= SCAN_UP_TO


def deep_k(k: int, mine: int | None) -> int:
    """How deep to ask the index again when its ``k`` hits held too few of the tenant's ``mine``
    vectors: ``DEEP`` times deeper, at most ``DEEP_MOST``; 0 (straight to the scan) when scanning
    the tenant's vectors costs less than that search, or when it would not be deeper."""
    deep = min(DEEP_MOST, k * DEEP)
    if deep <= k or (mine is not None and mine * _SCAN_PER_HIT <= deep):
        return 0
    return deep


def task_vector(tenant: str, task: str, embedder: Any, notes: list[str],
                state: dict[str, Any]) -> Plan[list[float] | None]:
    """The task's embedding (None without an embedder), which the fact and message vector legs
    search with. The embeddings are caught up first, but only when the ledger has moved since they
    last were (``state`` is the row of ``recall/begin``)."""
    if embedder is None:
        notes.append("vector search off (no embedder; GRAPHMEM_EMBEDDER=off or the wordllama package is "
                      "missing): graph, topic and full-text legs only")
        return None
    if state["embedder"] not in (None, embedder.name):
        raise ConfigurationError(f"tenant {tenant!r} was embedded with {state['embedder']!r}, not "
                                 f"{embedder.name!r}: rebuild the tenant to switch embedders")
    if state["embedded"] is None or state["embedded"] < state["head"]:
        if state["embedded"] is None:
            yield from ensure_vector_index(tenant, embedder.dimensions)
        _, full = yield from _embed_pages(tenant, embedder, CATCH_UP, 1, state["head"])
        if full and (yield from run_query("recall/embed_pending", tenant, limit=1)):
            notes.append("the vector index is still catching up with recent facts (embed_pending)")
    vector: list[float] = embedder.embed([task])[0]
    return vector


def vector_leg(tenant: str, vector: list[float], limit: int, state: dict[str, Any],
               min_score: float = 0.0) -> Plan[list[str]]:
    """Fact ids nearest to the task's ``vector`` (by their own text or their source's), best first,
    exact for the tenant (``recall/vector``: the shared index's hits, asked again deeper and then a
    scan of the tenant's own vectors when they come back short of ``limit``).
    A fact scoring below ``min_score`` (the index's score, (1 + cosine) / 2) is not a hit: a tenant
    holds few facts, and the nearest of three ranks first however far it is."""
    if not state["held"]:
        return []
    k_facts = vector_k(limit, FACT_OVERSAMPLE, state["fact_vectors"], state["fact_index"])
    k_sources = vector_k(limit, FACT_OVERSAMPLE, state["source_vectors"], state["source_index"])
    hits = yield from run_query("recall/vector", tenant, vector=vector, limit=limit, k_facts=k_facts,
                                k_sources=k_sources, k_deep_facts=deep_k(k_facts, state["fact_vectors"]),
                                k_deep_sources=deep_k(k_sources, state["source_vectors"]),
                                scan_facts=scan_first(state["fact_vectors"]),
                                scan_sources=scan_first(state["source_vectors"]))
    ranked = sorted((h for h in hits if h["score"] >= min_score), key=lambda h: -h["score"])
    return list(dict.fromkeys(h["fact"] for h in ranked))[:min(limit, MAX_VECTOR_HITS)]
