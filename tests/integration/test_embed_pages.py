"""Embeddings are written a page a transaction (graphmem.recall.vectors.EMBED_PAGE): every write
transaction leaves a segment in the vector index that every later search visits, so a catch-up
writes as few as it can — ``embed_pending`` one per page of ``limit``, a context() at most one
(``CATCH_UP`` embeddings), saying so when more were pending than it embedded."""

from __future__ import annotations

import inspect

import pytest

from graphmem import GraphMem
from graphmem.interfaces.cli import batches
from graphmem.recall import vectors
from graphmem.recall.embed import HashingEmbedder
from graphmem.store import client
from graphmem.store.surface import recall as surface

BEHIND = "the vector index is still catching up"


@pytest.fixture
def writes(monkeypatch) -> list[int]:
    """How many embeddings each recall/embed_write transaction carried, in order."""
    sizes: list[int] = []
    real = client.check_call

    def spy(tenant, call):
        if call.name == "recall/embed_write":
            sizes.append(len(call.params["facts"]) + len(call.params["sources"]))
        return real(tenant, call)

    monkeypatch.setattr(client, "check_call", spy)
    return sizes


def _mem(store, neo4j_target, driver, facts: int) -> GraphMem:
    mem = GraphMem(neo4j_target.settings, tenant=store.tenant, driver=driver, embedder=HashingEmbedder())
    mem.add_source("doc1", kind="document", at="2026-06-01T00:00:00Z", author="sre", text="the runbook moved")
    mem.apply_bulk([{"op": "set", "subject": "svc", "topic": f"setting_{i}", "value": f"v{i}",
                     "recorded_at": "2026-06-01T00:00:00Z"} for i in range(facts)])
    return mem


def test_embed_pending_writes_a_page_a_transaction(store, neo4j_target, driver, writes):
    mem = _mem(store, neo4j_target, driver, facts=6)
    assert mem.embed_pending(limit=3) == 7  # six facts and one source
    # a full page leaves its last event for the next (one event may write several facts): 3 + 3 + 3 + 1
    assert writes == [3, 3, 3, 1]
    writes.clear()
    assert mem.embed_pending(limit=3) == 0 and sum(writes) == 0


def test_a_context_catches_up_in_one_transaction_and_says_when_it_is_behind(store, neo4j_target, driver, writes,
                                                                            monkeypatch):
    monkeypatch.setattr(vectors, "CATCH_UP", 5)
    mem = _mem(store, neo4j_target, driver, facts=6)
    first = mem.context("setting", subject="svc")
    assert [w for w in writes if w] == [5] and any(BEHIND in n for n in first.notes)
    writes.clear()
    second = mem.context("setting", subject="svc")  # the rest, from the first page's last event on
    assert [w for w in writes if w] == [3] and not any(BEHIND in n for n in second.notes)
    writes.clear()
    third = mem.context("setting", subject="svc")  # nothing new: nothing written, no note
    assert writes == [] and not any(BEHIND in n for n in third.notes)


def test_every_bulk_catch_up_defaults_to_the_large_page():
    assert inspect.signature(surface.embed_pending).parameters["limit"].default == vectors.EMBED_PAGE
    assert inspect.signature(GraphMem.embed_pending).parameters["limit"].default == vectors.EMBED_PAGE
    assert inspect.signature(vectors.embed_pending).parameters["limit"].default == vectors.EMBED_PAGE
    assert inspect.signature(batches.embed_pending).parameters["limit"].default.default == vectors.EMBED_PAGE
