"""Expiry: a fact with expires_at (or a topic TTL, or an expiring source) stops answering 'now',
the sweeper records the expiry in the ledger, history labels it, and replay agrees."""

from __future__ import annotations

from datetime import datetime, timezone

from graphmem import GraphMem
from graphmem.store import ops

from test_rebuild import canonical_hash


class Clock:
    def __init__(self, t: str) -> None:
        self.t = datetime.fromisoformat(t).replace(tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.t


def _three_routes_to_expiry(mem: GraphMem) -> None:
    """Kim's facts that can expire, one a route: an explicit expires_at ("office", over a value
    that does not expire), a topic's TTL ("otp"), and an expiring source ("badge")."""
    mem.set("kim", "office", "Building 5", valid_from="2026-01-01", recorded_at="2026-01-01T00:00:00Z")
    mem.set("kim", "office", "Desk 7", valid_from="2026-02-01", recorded_at="2026-02-01T00:00:00Z",
            expires_at="2026-04-01T00:00:00Z")
    mem.declare_topic("otp", ttl_seconds=3600)
    mem.set("kim", "otp", "493021", recorded_at="2026-03-01T00:00:00Z")
    mem.add_source("memo", kind="document", at="2026-03-01", text="temporary pass", expires_at="2026-03-10T00:00:00Z")
    mem.set("kim", "badge", "temp-11", source="memo", recorded_at="2026-03-01T00:00:00Z")


def test_expiry_ttl_and_sweep(store, neo4j_target, driver):
    clock = Clock("2026-03-01T00:00:00")
    mem = GraphMem(neo4j_target.settings, tenant=store.tenant, driver=driver, clock=clock, install_schema=False)
    _three_routes_to_expiry(mem)
    assert mem.as_of("kim", "office").value == "Desk 7"
    assert mem.as_of("kim", "otp").value == "493021"
    assert mem.as_of("kim", "otp", known_at="2026-03-01T02:00:00Z").value is None  # TTL of an hour
    assert mem.as_of("kim", "badge", known_at="2026-03-11T00:00:00Z").value is None  # its source expired
    clock.t = datetime(2026, 5, 1, tzinfo=timezone.utc)
    # Expiry is part of the timeline: before any sweep, what the expired value had replaced stands
    # again, in both views, exactly as after the sweep.
    assert mem.as_of("kim", "office").value == "Building 5"
    assert mem.as_of("kim", "office", include_candidates=True).value == "Building 5"
    assert mem.sweep() == 3
    assert mem.sweep() == 0
    assert mem.as_of("kim", "office").value == "Building 5"  # what it had replaced stands again
    assert mem.as_of("kim", "office", valid_at="2026-03-01", known_at="2026-03-01").value == "Desk 7"
    entries = mem.history("kim", "office")
    assert [(e.value, e.expired) for e in entries] == [("Building 5", False), ("Desk 7", True)]
    assert mem.history_values("kim", "office") == ["Building 5"]
    kinds = [e["op"] for e in mem.events()]
    assert kinds.count("expire") == 1
    before = canonical_hash(driver, mem.tenant)
    mem.rebuild()
    assert canonical_hash(driver, mem.tenant) == before


def test_as_of_looks_for_expired_values_only_in_topics_that_can_expire(store, neo4j_target, driver):
    """A topic says whether any of its facts can expire (write/facts marks it, only a rebuild unmarks it);
    as_of and as_of_many skip the expiry lookup in the others. A topic written before the mark
    existed has none, and is looked in as before."""
    clock = Clock("2026-03-01T00:00:00")
    mem = GraphMem(neo4j_target.settings, tenant=store.tenant, driver=driver, clock=clock, install_schema=False)
    mem.declare_topic("desk")
    mem.set("kim", "desk", "D1", recorded_at="2026-01-01T00:00:00Z")
    mem.set("kim", "phone", "555-0100", recorded_at="2026-01-01T00:00:00Z")
    _three_routes_to_expiry(mem)
    mem.set("kim", "phone", "555-0199", recorded_at="2026-03-01T00:00:00Z")  # a later batch: still unmarked
    flags = dict(driver.execute_query("MATCH (t:Topic {tenant: $t}) WHERE t.name IS NOT NULL "
                                      "RETURN t.name, t.expiring", t=mem.tenant).records)
    assert flags == {"desk": False, "phone": False, "office": True, "otp": True, "badge": True}

    def notes() -> tuple[list[str], list[list[str]]]:
        one = mem.as_of("kim", "office", valid_at="2026-03-01").notes
        many = mem._run(ops.as_of_many(mem.tenant, clock(), [("kim", "office", None), ("kim", "phone", None)],
                                       valid_at="2026-03-01"))  # recall's reads: several slots in one round trip
        return one, [a.notes for a in many]

    def mark_office(how: str) -> None:
        driver.execute_query(f"MATCH (t:Topic {{tenant: $t, name: 'office'}}) {how}", t=mem.tenant)

    clock.t = datetime(2026, 5, 1, tzinfo=timezone.utc)
    resumed = mem.as_of("kim", "office", valid_at="2026-03-01")
    assert resumed.value == "Building 5" and len(resumed.notes) == 1 and "'Desk 7'" in resumed.notes[0]
    assert notes() == (resumed.notes, [resumed.notes, []])
    # The mark is what decides: marked false by hand (no write path does this while an expiring
    # fact exists), both reads skip the lookup and the note goes; the slow path still resolves it.
    mark_office("SET t.expiring = false")
    assert notes() == ([], [[], []])
    assert mem.as_of("kim", "office", valid_at="2026-03-01", include_candidates=True).notes == resumed.notes
    # a database written before the mark: no flag on the topic, the lookup runs and notes the same
    mark_office("REMOVE t.expiring")
    assert notes() == (resumed.notes, [resumed.notes, []])
