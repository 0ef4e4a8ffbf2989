"""Free text through the store: ingest draws events, the ledger keeps them, replay never re-extracts."""

from __future__ import annotations

from graphmem import GraphMem


class Exploding:
    def extract(self, message, context=()):
        raise AssertionError("replay must not call the extractor")


def test_ingest_then_rebuild_uses_the_drawn_events(store, neo4j_target, driver):
    store.ingest("我常住青禾路。", id="m1", speaker="lin", at="2026-09-01T09:00:00Z")
    store.ingest("我9月20日起搬到河湾路。", id="m2", speaker="lin", at="2026-09-18T10:00:00Z")
    store.ingest("这是9月1日那封邮件，里面写我住青禾路。", id="m3", speaker="lin", at="2026-10-05T10:00:00Z")
    assert store.as_of("lin", "home_address").value == "河湾路"
    events = list(store.events())
    assert [e["op"] for e in events] == ["message"] * 3 and '"drawn"' in events[0]["payload"]
    replayer = GraphMem(neo4j_target.settings, tenant=store.tenant, driver=driver, extractor=Exploding(),
                        install_schema=False)
    assert replayer.rebuild() == 3
    assert replayer.as_of("lin", "home_address").value == "河湾路"
    assert replayer.as_of("lin", "home_address", valid_at="2026-09-10").source == "m1"
    w = replayer.why("lin", "home_address")
    assert w.source == "m2"


def test_correction_and_cancellation_use_the_stores_recent_facts(store):
    store.ingest("I live in Shanghai.", id="a", speaker="zhou", at="2026-01-01T08:00:00Z")
    store.ingest("I moved to Suzhou on March 1.", id="b", speaker="zhou", at="2026-03-10T08:00:00Z")
    store.ingest("Sorry, the move was on Feb 25.", id="c", speaker="zhou", at="2026-03-12T08:00:00Z")
    assert store.as_of("zhou", "home_city", valid_at="2026-02-27").value == "Suzhou"
    assert store.as_of("zhou", "home_city", valid_at="2026-02-27", known_at="2026-03-11").value == "Shanghai"
    store.ingest("10月3日至7日去海城出差，住海星酒店。", id="t1", speaker="lin", at="2026-09-28T10:00:00Z")
    store.ingest("出差取消了。", id="t2", speaker="lin", at="2026-10-01T10:00:00Z")
    assert store.as_of("lin", "trip_city", valid_at="2026-10-05").value is None
    assert store.as_of("lin", "trip_city", valid_at="2026-10-05", known_at="2026-09-30").value == "海城"
