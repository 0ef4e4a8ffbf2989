"""Expiry: a fact with expires_at (or a topic TTL, or an expiring source) stops answering 'now',
the sweeper records the expiry in the ledger, history labels it, and replay agrees."""

from __future__ import annotations

from datetime import datetime, timezone

from graphmem import GraphMem

from test_rebuild import canonical_hash


class Clock:
    def __init__(self, t: str) -> None:
        self.t = datetime.fromisoformat(t).replace(tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.t


def test_expiry_ttl_and_sweep(store, neo4j_target, driver):
    clock = Clock("2026-03-01T00:00:00")
    mem = GraphMem(neo4j_target.settings, tenant=store.tenant, driver=driver, clock=clock, install_schema=False)
    mem.set("kim", "office", "Building 5", valid_from="2026-01-01", recorded_at="2026-01-01T00:00:00Z")
    mem.set("kim", "office", "Desk 7", valid_from="2026-02-01", recorded_at="2026-02-01T00:00:00Z",
            expires_at="2026-04-01T00:00:00Z")
    mem.declare_topic("otp", ttl_seconds=3600)
    mem.set("kim", "otp", "493021", recorded_at="2026-03-01T00:00:00Z")
    mem.add_source("memo", kind="document", at="2026-03-01", text="temporary pass", expires_at="2026-03-10T00:00:00Z")
    mem.set("kim", "badge", "temp-11", source="memo", recorded_at="2026-03-01T00:00:00Z")
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
    ops = [e["op"] for e in mem.events()]
    assert ops.count("expire") == 1
    before = canonical_hash(driver, mem.tenant)
    mem.rebuild()
    assert canonical_hash(driver, mem.tenant) == before
