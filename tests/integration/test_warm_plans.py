"""Recall's plans warmed before the first question (graphmem.recall.warm, issue #47 item 2).

Neo4j caches a plan per query text and parameter types, so the warm-up helps only if it sends every
query a real ``context()`` sends with the same types. These tests record what real calls of each
question shape send and what the warm-up sends, and compare; they check the warm-up writes nothing,
and that a client warming behind its constructor answers at once (nothing waits for the warm-up)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import pytest

from graphmem import GraphMem
from graphmem.bench.chatter import SHAPES, conversation, questions
from graphmem.store import ops
from graphmem.store.queries import Call


def _shape(value: Any) -> str:
    """What the plan cache tells apart: the parameter's type (a null is a type of its own)."""
    if isinstance(value, dict):  # a map is one type whatever its keys hold
        return "map"
    if isinstance(value, list):
        return "list"
    return type(value).__name__


def _recording(mem: GraphMem, seen: set[tuple[str, str]]) -> None:
    """Record (query, parameter types) of every read the client sends, behind the plan or not."""
    step = mem._step

    def record(s: Any) -> Any:
        inner = s.step if isinstance(s, ops.Start) else s
        if isinstance(inner, Call):
            seen.add((inner.query.name, ",".join(f"{k}={_shape(v)}" for k, v in sorted(inner.params.items()))))
        return step(s)

    mem._step = record  # type: ignore[method-assign]


@pytest.fixture(scope="module")
def talked(neo4j_target, driver):
    """A tenant holding a conversation of 80 turns (facts, episodes, messages, vectors)."""
    mem = GraphMem(neo4j_target.settings, tenant=f"test-warm-{uuid.uuid4().hex[:8]}", driver=driver)
    chat = conversation(80, seed=11)
    mem.ingest_bulk(chat.rows)
    mem.embed_pending()
    yield mem, chat, max(datetime.fromisoformat(r["at"]) for r in chat.rows)
    mem.drop_tenant()


def test_the_warm_up_sends_every_query_a_question_sends_with_its_parameter_types(talked):
    mem, chat, now = talked
    real: set[tuple[str, str]] = set()
    warm: set[tuple[str, str]] = set()
    asker = mem.for_tenant(mem.tenant)
    _recording(asker, real)
    asks = questions(chat, 4 * len(SHAPES), seed=3)
    for ask in asks:
        asker.context(ask.text, valid_at=now)
    for ask in asks[:len(SHAPES)]:  # scoped to a subject: the same queries with a subject given
        asker.context(ask.text, valid_at=now, subject=chat.people[0])
    warmer = mem.for_tenant(mem.tenant)
    _recording(warmer, warm)
    assert warmer.warm_plans() >= len(warm) > 10  # the slot lists go in three sizes: one type
    recall = {q for q in real if q[0].startswith("recall/") or q[0] == "as_of_many"}
    assert {q[0] for q in recall} >= {"recall/people", "recall/begin", "recall/messages", "recall/vector",
                                      "recall/candidates"}
    assert recall - warm == set(), sorted(warm)


def test_the_warm_up_writes_nothing_and_finds_nothing(store):
    store.set("deploy", "port", "8080")
    head = store.events_page(after=0, limit=100)
    assert store.warm_plans() > 10
    assert store.events_page(after=0, limit=100) == head
    assert store.as_of("deploy", "port").value == "8080"


def test_a_client_warming_behind_its_constructor_answers_at_once(neo4j_target, talked):
    from graphmem.store.client import _WARMING

    mem, chat, now = talked
    fresh = GraphMem(neo4j_target.settings, tenant=mem.tenant)  # a driver of its own: warmed behind
    try:
        warming, _ = _WARMING[fresh._driver]
        ctx = fresh.context(questions(chat, 1, seed=5)[0].text, valid_at=now)
        assert ctx.items
        assert warming.result(timeout=120) > 10
        quiet = GraphMem(neo4j_target.settings, tenant=mem.tenant, warm=False)
        try:
            assert quiet._driver not in _WARMING
        finally:
            quiet.close()
    finally:
        fresh.close()


def test_closing_a_client_stops_its_warm_up_first(neo4j_target, talked):
    """A client closed while it warms stops the warm-up between two queries, then closes its
    driver: a driver closed under a running query fails in the driver's buffers."""
    from graphmem.bench.long_history import clear_plan_caches
    from graphmem.store.client import _WARMING

    mem, _, _ = talked
    clear_plan_caches(mem)  # every plan to make again: the warm-up is still running at close()
    fresh = GraphMem(neo4j_target.settings, tenant=mem.tenant)
    warming, stop = _WARMING[fresh._driver]
    fresh.close()
    assert stop.is_set() and warming.done()


def test_a_borrowed_driver_warms_only_when_asked_and_close_stops_it(neo4j_target, talked):
    """A client on someone else's driver does not warm by default (the owner may close the driver
    under a warm-up query); with warm=True, closing the client stops the warm-up, and then the
    owner's driver closes cleanly."""
    import neo4j

    from graphmem.bench.long_history import clear_plan_caches
    from graphmem.store.client import _WARMING

    mem, _, _ = talked
    s = neo4j_target.settings
    for asked in (None, True):
        d = neo4j.GraphDatabase.driver(s.uri, auth=s.auth, notifications_min_severity="OFF")
        try:
            clear_plan_caches(mem)
            client = GraphMem(s, tenant=mem.tenant, driver=d, warm=asked)
            assert (d in _WARMING) is bool(asked)
            client.close()
            if asked:
                warming, stop = _WARMING[d]
                assert stop.is_set() and warming.done()
            assert client.as_of("nobody", "employer").value is None  # the borrowed driver still serves
        finally:
            d.close()
