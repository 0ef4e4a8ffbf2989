"""search / facts / candidates against Neo4j (issue #44): ranked, typed memories from the legs of
context(), a subject's current facts with candidates marked when asked, and the waiting candidates;
the same on the async client; bad input refused before any read."""

from __future__ import annotations

import asyncio

import pytest

from graphmem import AsyncGraphMem, Memory, SearchResult, ValidationError


def _story(store) -> None:
    store.add_source("r1", kind="message", at="2026-09-01T10:00:00Z", text="I live on Qinghe Rd", author="lin")
    store.set("lin", "home_address", "Qinghe Rd", source="r1")
    store.add_source("r2", kind="message", at="2026-09-25T10:00:00Z", text="I moved to Hewan Rd on Sep 20",
                     author="lin")
    store.set("lin", "home_address", "Hewan Rd", source="r2", valid_from="2026-09-20")
    store.set("lin", "allergy", "peanuts")
    store.set("lin", "office", "B2", status="candidate", authority="L2", ref="g1")
    store.set("mel", "office", "C3", status="candidate", authority="L2", ref="g2")


def test_search_ranks_typed_memories_like_context(store):
    _story(store)
    found = store.search("where does lin live?", subject="lin", valid_at="2026-10-05")
    assert isinstance(found, SearchResult) and all(isinstance(m, Memory) for m in found.memories)
    top = found.memories[0]
    assert (top.kind, top.topic, top.value, top.id is not None) == ("fact", "home_address", "Hewan Rd", True)
    assert top.source is not None and top.source.id == "r2" and top.valid_from is not None
    scores = [m.score for m in found.memories]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0
    assert not any(m.kind == "candidate" for m in found.memories)  # candidates only when asked
    ctx = store.context("where does lin live?", subject="lin", valid_at="2026-10-05")
    ctx_facts = {(i.topic, i.value) for i in ctx.items if i.kind == "fact"}
    assert {(m.topic, m.value) for m in found.memories if m.kind == "fact"} == ctx_facts  # the same legs
    # the past: the value that held then
    old = store.search("where did lin live?", subject="lin", valid_at="2026-09-10")
    assert [m.value for m in old.memories if m.kind == "fact" and m.topic == "home_address"] == ["Qinghe Rd"]
    assert len(store.search("where does lin live?", subject="lin", limit=1).memories) == 1


def test_search_shows_candidates_when_asked_and_episodes(store):
    _story(store)
    with_cands = store.search("which office is lin in?", subject="lin", include_candidates=True)
    cands = [m for m in with_cands.memories if m.kind == "candidate"]
    assert [(m.topic, m.value, m.status) for m in cands] == [("office", "B2", "candidate")]
    assert any(w.kind == "candidate" for w in cands[0].warnings)
    store.ingest_bulk([{"id": "D1:3", "speaker": "Caroline", "at": "2023-05-08T13:56:00Z",
                        "text": "I went to a LGBTQ support group yesterday and it was so powerful."}])
    said = store.search("When did Caroline go to the support group?")
    kinds: dict[str, Memory] = {}
    for m in said.memories:  # the best of each kind
        kinds.setdefault(m.kind, m)
    assert kinds["message"].id == "D1:3" and "support group" in (kinds["message"].text or "")
    ep = kinds["episode"]
    assert ep.subject == "Caroline" and "support group" in ep.value and ep.source.id == "D1:3"
    assert ep.valid_from is not None and ep.valid_from.date().isoformat() == "2023-05-07"


def test_facts_lists_what_as_of_says_and_marks_candidates(store):
    _story(store)
    facts = store.facts("lin")
    assert [(m.kind, m.topic, m.value) for m in facts] == [("fact", "allergy", "peanuts"),
                                                           ("fact", "home_address", "Hewan Rd")]
    for m in facts:
        a = store.as_of("lin", m.topic)
        assert m.value == a.value or m.value in (a.values or [])  # allergy is many-valued (built-in)
    assert facts[1].source.id == "r2" and facts[1].source.text == "I moved to Hewan Rd on Sep 20"
    past = store.facts("lin", valid_at="2026-09-10")
    assert ("home_address", "Qinghe Rd") in [(m.topic, m.value) for m in past]
    marked = store.facts("lin", include_candidates=True)
    assert [(m.kind, m.topic, m.value) for m in marked][-1] == ("candidate", "office", "B2")
    assert store.facts("nobody") == []


def test_candidates_lists_waiting_ones_until_confirmed(store):
    _story(store)
    assert [(m.subject, m.topic, m.value) for m in store.candidates()] == [("lin", "office", "B2"),
                                                                           ("mel", "office", "C3")]
    assert [m.subject for m in store.candidates(subject="mel")] == ["mel"]
    store.confirm("g1")
    store.reject("g2")
    assert store.candidates() == []
    assert [m.value for m in store.candidates(known_at="2099-01-01")] == []


@pytest.mark.parametrize("call", [
    lambda s: s.search(""), lambda s: s.search("x", limit=0), lambda s: s.search("x", limit=501),
    lambda s: s.search("x", subject="x" * 201), lambda s: s.facts(""), lambda s: s.candidates(limit=0),
])
def test_bad_input_is_refused(store, call):
    with pytest.raises(ValidationError):
        call(store)


def test_the_async_client_has_the_same_reads(store, neo4j_target):
    _story(store)

    async def run() -> tuple:
        async with AsyncGraphMem(neo4j_target.settings, tenant=store.tenant) as mem:
            return (await mem.search("where does lin live?", subject="lin"), await mem.facts("lin"),
                    await mem.candidates())
    found, facts, cands = asyncio.run(run())
    assert found.memories[0].value == "Hewan Rd"
    assert [m.value for m in facts] == [m.value for m in store.facts("lin")]
    assert len(cands) == 2
