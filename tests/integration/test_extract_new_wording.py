"""Issue 43, item 2, end to end: new wording drawn by the extractor and applied by the store
(real Neo4j, a fresh tenant per test). The store gives the extractor the speaker's recent facts;
these tests check that what the rules assume of them holds (one message's facts share a seq)."""

from __future__ import annotations


def test_a_date_correction_re_dates_every_fact_the_move_message_drew(store):
    store.ingest("We're relocating to Lyon on April 4. Our new address is 18 Birch Lane.", id="m1", speaker="lin",
                 at="2026-03-10T09:00:00Z")
    assert store.as_of("lin", "home_address", valid_at="2026-04-05").value == "18 Birch Lane"
    assert store.as_of("lin", "home_address", valid_at="2026-03-20").value is None  # a plan, not now
    store.ingest("Sorry, the move is on April 9, not April 4.", id="m2", speaker="lin", at="2026-03-11T09:00:00Z")
    for topic, value in (("home_city", "Lyon"), ("home_address", "18 Birch Lane")):
        assert store.as_of("lin", topic, valid_at="2026-04-06").value is None, topic
        assert store.as_of("lin", topic, valid_at="2026-04-10").value == value, topic


def test_two_environments_in_one_sentence_and_a_corrected_number(store):
    store.ingest("prod listens on 7443, in staging we use 7001.", id="p1", speaker="ops", about="svc",
                 at="2026-03-10T09:00:00Z")
    assert store.as_of("svc", "port", env="prod").value == "7443"
    assert store.as_of("svc", "port", env="staging").value == "7001"
    store.ingest("Typo, sorry: staging is 7011, not 7001.", id="p2", speaker="ops", about="svc",
                 at="2026-03-10T09:05:00Z")
    assert store.as_of("svc", "port", env="staging").value == "7011"
    assert store.as_of("svc", "port", env="prod").value == "7443"


def test_leaving_an_employer_and_a_bounded_stay(store):
    store.ingest("I work at Initech.", id="e1", speaker="kim", at="2026-01-05T09:00:00Z")
    store.ingest("I left Initech in March.", id="e2", speaker="kim", at="2026-03-20T09:00:00Z")
    assert store.as_of("kim", "employer", valid_at="2026-02-15").value == "Initech"
    assert store.as_of("kim", "employer", valid_at="2026-03-15").value is None
    store.ingest("我常住河湾路，这两天临时住海星酒店。", id="h1", speaker="kim", at="2026-03-20T09:00:00Z")
    assert store.as_of("kim", "home_address", valid_at="2026-04-01").value == "河湾路"
    assert store.as_of("kim", "trip_lodging", valid_at="2026-03-21").value == "海星酒店"
    assert store.as_of("kim", "trip_lodging", valid_at="2026-03-23").value is None
