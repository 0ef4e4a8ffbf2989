"""Principals and authority (docs/design.md §5): every event names its actor; a candidate confirmed by
its subject (or a delegate) is an L1 statement from the confirmation on, by anyone else it stays
L2; an assistant's words are drawn as L2 candidates; erase is a request until a person confirms."""

from __future__ import annotations

import pytest

from graphmem import GraphMem
from graphmem.core.errors import NotFoundError, ValidationError


def _as(store, actor: str) -> GraphMem:
    return GraphMem(store.settings, tenant=store.tenant, driver=store._driver, actor=actor, install_schema=False)


def test_every_event_names_its_actor(store):
    store.set("deploy", "port", "8000", recorded_at="2026-01-01T00:00:00Z")
    _as(store, "ci-bot").set("deploy", "port", "9000", recorded_at="2026-01-02T00:00:00Z")
    store.set("deploy", "port", "9100", actor="alice", recorded_at="2026-01-03T00:00:00Z")
    assert [e["actor"] for e in store.events()] == ["owner", "ci-bot", "alice"]


def test_a_candidate_confirmed_by_its_subject_is_l1_from_then_on(store):
    agent = _as(store, "claude")
    agent.set("lin", "diet", "vegetarian", authority="L2", status="candidate", ref="d1",
              recorded_at="2026-01-01T00:00:00Z")
    store.set("lin", "diet", "omnivore", authority="L2", recorded_at="2026-01-02T00:00:00Z")
    assert store.as_of("lin", "diet").value == "omnivore"
    _as(store, "lin").confirm("d1", recorded_at="2026-01-03T00:00:00Z")
    now = store.as_of("lin", "diet")
    assert (now.value, now.authority) == ("vegetarian", "L1")  # L1 outranks the inferred omnivore
    before = store.as_of("lin", "diet", known_at="2026-01-01T12:00:00Z", include_candidates=True)
    assert before.authority == "L2" and before.author == "claude"
    assert store.as_of("lin", "diet", include_candidates=True).authority == "L1"
    assert "vegetarian" in store.user_page("lin")


def test_a_confirmation_by_someone_else_leaves_it_l2(store):
    _as(store, "claude").set("lin", "diet", "vegan", authority="L2", status="candidate", ref="d1",
                             recorded_at="2026-01-01T00:00:00Z")
    store.set("lin", "diet", "omnivore", recorded_at="2026-01-02T00:00:00Z")  # L1, by the owner
    _as(store, "bob").confirm("d1", recorded_at="2026-01-03T00:00:00Z")
    assert store.as_of("lin", "diet").value == "omnivore"
    assert store.as_of("lin", "diet", include_candidates=True).value == "omnivore"


def test_a_delegate_of_the_subject_may_confirm(store):
    lin = _as(store, "lin")
    lin.set("lin", "delegates", "assistant-amy", recorded_at="2026-01-01T00:00:00Z")
    _as(store, "mallory").set("lin", "delegates", "mallory", recorded_at="2026-01-01T01:00:00Z")  # not lin's word
    for i, who in enumerate(("assistant-amy", "mallory")):
        _as(store, "claude").set("lin", f"t{i}", "x", authority="L2", status="candidate", ref=f"c{i}",
                                 recorded_at=f"2026-01-0{2 + 2 * i}T00:00:00Z")
        _as(store, who).confirm(f"c{i}", recorded_at=f"2026-01-0{3 + 2 * i}T00:00:00Z")
    assert store.as_of("lin", "t0").authority == "L1"
    assert store.as_of("lin", "t1").authority == "L2"


def test_an_assistants_words_are_drawn_as_candidates(store):
    store.ingest("I live on Hewan Rd.", id="m1", speaker="lin", at="2026-01-01T00:00:00Z")
    store.ingest("You live on Qinghe Rd now.", id="m2", speaker="claude", about="lin", at="2026-01-02T00:00:00Z",
                 drawn_as="inferred")
    assert store.as_of("lin", "home_address").value == "Hewan Rd"
    drawn = [a for a in store.assertions("lin", "home_address") if a.source == "m2"]
    assert all(a.authority == "L2" and a.status == "candidate" for a in drawn)


def test_erase_is_a_request_until_a_person_confirms(store):
    store.add_source("m1", kind="message", at="2026-01-01", text="lin lives on Hewan Rd", author="lin")
    store.set("lin", "home_address", "Hewan Rd", source="m1", recorded_at="2026-01-01T00:00:00Z")
    store.set("bob", "home_address", "Main St", recorded_at="2026-01-01T00:00:00Z")
    agent = _as(store, "claude")
    req = agent.request_erase(subject="lin", reason="user asked")
    assert req["asked_by"] == "claude" and req["would_remove"]["sources"] == ["m1"]
    assert store.as_of("lin", "home_address").value is None  # held back at once
    assert store.as_of("lin", "home_address", known_at="2026-01-02").value == "Hewan Rd"  # reversible: history kept
    assert store.context("where does lin live? Hewan", subject="lin").items == []
    held, _, _ = store._driver.execute_query("MATCH (s:Source {tenant: $t, uid: 'm1'}) RETURN s.withheld_at AS w",
                                             t=store.tenant, database_=store.settings.database)
    assert held[0]["w"] is not None  # marked for recall's source items too
    store.cancel_erase(req["request"], reason="asked by mistake")
    assert store.as_of("lin", "home_address").value == "Hewan Rd"  # given back
    with pytest.raises(ValidationError, match="already cancelled"):
        store.confirm_erase(req["request"])
    req2 = agent.request_erase(subject="lin", reason="user asked again")
    shown = store.erase_request(req2["request"])
    assert shown["asked_by"] == "claude" and shown["subject"] == "lin"
    done = _as(store, "lin").confirm_erase(req2["request"])
    assert done["confirmed_by"] == "lin" and done["request"] == req2["request"]
    assert "Hewan" not in str(list(store.events()))
    assert store.as_of("bob", "home_address").value == "Main St"
    with pytest.raises(NotFoundError):
        store.confirm_erase(req2["request"])
    store.rebuild()
    assert store.as_of("lin", "home_address").value is None
