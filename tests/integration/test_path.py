"""``path()``: the topics' answers composed hop by hop, over walks that may come back to an entity
or take an edge an earlier hop took (docs/semantics.md, "a path whose hops revisit an entity").
A Cypher pattern never takes a relationship twice, so a variable-length pattern loses such walks;
these tests hold ``cypher/path.cypher`` to the composition, and the rules view (``as_of`` hop by
hop, every value of a many-valued hop followed) to the same answers."""

from __future__ import annotations

import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.examples_budget import examples

FROM, AT = "2020-01-01T00:00:00Z", "2021-06-01T00:00:00Z"
ENTITIES = ["a", "b", "c", "d"]


def _link(subject: str, topic: str, obj: str) -> dict:
    return {"op": "set", "subject": subject, "topic": topic, "object": obj, "valid_from": FROM}


def test_a_path_through_someone_who_manages_themselves(store):
    store.apply_bulk([_link("alice", "managed_by", "bob"), _link("bob", "managed_by", "ceo"),
                      _link("ceo", "managed_by", "ceo")])
    for hops in range(1, 12):  # past nine topics too, where the variable-length pattern stopped
        want = "bob" if hops == 1 else "ceo"
        assert store.path("alice", ["managed_by"] * hops, valid_at=AT).value == want, hops
        # the rules view follows the hops one as_of at a time: the same answer
        assert store.path("alice", ["managed_by"] * hops, valid_at=AT, include_candidates=True).value == want, hops


def test_a_diamond_answers_each_fact_once_and_a_cycle_comes_back(store):
    store.apply_bulk([{"op": "topic", "name": "knows", "cardinality": "many"},
                      {"op": "topic", "name": "tag", "cardinality": "many"},
                      _link("x", "knows", "y"), _link("x", "knows", "z"), _link("y", "knows", "w"),
                      _link("z", "knows", "w"), _link("w", "knows", "x"),
                      {"op": "set", "subject": "w", "topic": "tag", "value": "W", "valid_from": FROM},
                      {"op": "set", "subject": "x", "topic": "tag", "value": "X", "valid_from": FROM},
                      {"op": "set", "subject": "y", "topic": "city", "value": "Bergen", "valid_from": FROM},
                      {"op": "set", "subject": "z", "topic": "city", "value": "Aarhus", "valid_from": FROM}])
    for rules_view in (False, True):  # the rules view asks as_of hop by hop: the same answers
        def tags(topics: list[str]) -> list | None:
            return store.path("x", topics, valid_at=AT, include_candidates=rules_view).values

        assert tags(["knows", "knows", "tag"]) == ["W"]  # by y and by z: once
        assert tags(["knows", "knows", "knows", "tag"]) == ["X"]
        # x → y → w → x → y → w: the edge x → y twice, w → x once, then w's tag
        assert tags(["knows"] * 5 + ["tag"]) == ["W"]
        assert tags(["knows", "nothing", "tag"]) == []
        # a one-valued topic at the end of two walks: the first value in value order
        city = store.path("x", ["knows", "city"], valid_at=AT, include_candidates=rules_view)
        assert city.value == "Aarhus" and city.values is None and city.conflict is None


def _composed(edges: set[tuple[str, str]], start: str, hops: int) -> set[str]:
    """What following ``link`` ``hops`` times from ``start`` reaches, one hop at a time."""
    reached = {start}
    for _ in range(hops):
        reached = {y for x, y in edges if x in reached}
    return reached


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(edges=st.sets(st.tuples(st.sampled_from(ENTITIES), st.sampled_from(ENTITIES)), min_size=1, max_size=10))
def test_a_path_is_its_hops_composed(store, edges):
    mem = store.for_tenant(f"{store.tenant}-{uuid.uuid4().hex[:8]}")
    try:
        mem.apply_bulk([{"op": "topic", "name": "link", "cardinality": "many"},
                        {"op": "topic", "name": "tag", "cardinality": "many"},
                        *(_link(x, "link", y) for x, y in sorted(edges)),
                        *({"op": "set", "subject": e, "topic": "tag", "value": e.upper(), "valid_from": FROM}
                          for e in ENTITIES)])
        for start in ENTITIES:
            for hops in range(0, 5):
                want = sorted(e.upper() for e in _composed(edges, start, hops))
                got = mem.path(start, ["link"] * hops + ["tag"], valid_at=AT).values
                assert got == want, (start, hops, sorted(edges))
                rules = mem.path(start, ["link"] * hops + ["tag"], valid_at=AT, include_candidates=True).values
                assert rules == want, ("rules view", start, hops, sorted(edges))
    finally:
        mem.drop_tenant()


def test_the_rules_view_keeps_the_expiry_note_at_the_end_of_a_path(store):
    store.apply_bulk([dict(_link("alice", "managed_by", "bob"), recorded_at=FROM),
                      {"op": "set", "subject": "bob", "topic": "desk", "value": "D7", "valid_from": FROM,
                       "recorded_at": FROM, "expires_at": "2021-01-01T00:00:00Z"}])
    end = store.as_of("bob", "desk", valid_at=AT, known_at="2021-02-01T00:00:00Z", include_candidates=True)
    got = store.path("alice", ["managed_by", "desk"], valid_at=AT, known_at="2021-02-01T00:00:00Z",
                     include_candidates=True)
    assert got.value is None and end.notes and got.notes == end.notes  # nothing holds, and it says why
