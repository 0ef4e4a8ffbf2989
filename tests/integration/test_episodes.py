"""Episodes as stored records: drawn by ingest (and ingest_bulk), read by time window and person,
in Cypher, rebuilt identically by a replay, erased with their subject or source, tenant-bound."""

from __future__ import annotations

import json

import pytest

from graphmem.core.errors import NotFoundError, ValidationError

from test_rebuild import canonical_hash

AT = "2023-05-08T13:56:00Z"  # a Monday


def test_ingest_stores_episodes_and_reads_them_by_window(store, driver):
    store.ingest("I went to a support group yesterday. It was powerful.", id="m1", speaker="caroline", at=AT)
    store.ingest("上周六我们去爬了黄山", id="m2", speaker="lin", at=AT)
    store.ingest("I painted a sunset last week.", id="m3", speaker="melanie", at=AT)
    store.ingest("Did you go to the gym yesterday?", id="m4", speaker="melanie", at=AT)  # a question: none

    all_ = store.episodes()
    assert {(e.who, e.what) for e in all_} == {("caroline", "went to a support group"), ("lin", "去爬了黄山"),
                                               ("melanie", "painted a sunset")}
    (group,) = store.episodes(who="caroline")
    assert (group.start.isoformat(), group.end.isoformat()) == ("2023-05-07T00:00:00+00:00",
                                                                "2023-05-08T00:00:00+00:00")
    assert group.source == "m1" and group.text.startswith("I went") and group.evidence.startswith("[2:25]")
    (sunset,) = store.episodes(who="melanie")
    assert (sunset.start.date().isoformat(), sunset.end.date().isoformat()) == ("2023-05-01", "2023-05-08")
    # the window is half-open and overlaps: May 7 holds the support group and lies in last week
    assert {e.who for e in store.episodes(since="2023-05-07", until="2023-05-08")} == {"caroline", "melanie"}
    assert {e.who for e in store.episodes(since="2023-05-08")} == set()
    assert [e.who for e in store.episodes(text="SUPPORT")] == ["caroline"]
    assert store.episodes(known_at="2023-01-01") == []
    # episodes are no facts: nothing answers as_of
    assert store.assertions("caroline", "went") == []
    # the message's ledger entry keeps them (replay never re-extracts)
    payload = next(p for p in (json.loads(e["payload"]) for e in store.events()) if p.get("id") == "m1")
    assert [d["op"] for d in payload["drawn"]] == ["episode"]

    rows, _, _ = driver.execute_query(
        "MATCH (ep:Episode {tenant: $t})-[:FROM]->(s:Source), (ep)-[:BY]->(p:Entity) "
        "RETURN ep.what AS what, s.uid AS source, p.uid AS who ORDER BY what", t=store.tenant)
    assert [(r["what"], r["source"], r["who"]) for r in rows] == [
        ("painted a sunset", "m3", "melanie"), ("went to a support group", "m1", "caroline"), ("去爬了黄山", "m2", "lin")]


def test_an_activity_without_a_time_is_an_episode_before_the_message(store):
    store.ingest("I wanted to tell you I just joined a writers group.", id="u1", speaker="joanna", at=AT)
    (e,) = store.episodes(who="joanna")
    assert (e.what, e.start, e.end.isoformat()) == ("joined a writers group", None, "2023-05-09T00:00:00+00:00")
    assert store.episodes(since="2023-01-01", until="2023-02-01") == [e]  # some time before: any earlier window
    assert store.episodes(since="2023-05-09") == []
    store.ingest("I'm going to visit my grandma next week.", id="u2", speaker="joanna", at=AT)
    (plan,) = store.episodes(since="2023-05-09")
    assert (plan.what, plan.planned, plan.start.isoformat()) == ("visit my grandma", True, "2023-05-15T00:00:00+00:00")


def test_episode_op_validation_and_place(store, driver):
    store.add_source("doc", kind="message", at=AT, text="We hiked Yosemite in May.", author="lin")
    store.apply({"op": "episode", "source": "doc", "who": "lin", "what": "hiked", "where": "Yosemite",
                 "start": "2023-05-01", "end": "2023-06-01"})
    rows, _, _ = driver.execute_query("MATCH (:Episode {tenant: $t})-[:AT]->(p:Entity) RETURN p.uid AS p",
                                      t=store.tenant)
    assert [r["p"] for r in rows] == ["Yosemite"]
    with pytest.raises(ValidationError):  # end not after start
        store.apply({"op": "episode", "source": "doc", "who": "lin", "what": "x", "start": "2023-05-02",
                     "end": "2023-05-01"})
    with pytest.raises(ValidationError):  # no source
        store.apply({"op": "episode", "who": "lin", "what": "x", "start": "2023-05-01", "end": "2023-05-02"})
    with pytest.raises(NotFoundError):
        store.apply({"op": "episode", "source": "nope", "who": "lin", "what": "x", "start": "2023-05-01",
                     "end": "2023-05-02"})
    with pytest.raises(ValidationError):
        store.episodes(since="2023-05-02", until="2023-05-01")
    with pytest.raises(ValidationError):
        store.episodes(limit=0)


def test_rebuild_and_bulk_give_the_same_episodes(store, driver):
    rows = [{"id": "b1", "speaker": "caroline", "text": "I went to a support group yesterday.", "at": AT},
            {"id": "b2", "speaker": "melanie", "text": "I painted a sunset last week. My hometown is Dayton.",
             "at": AT},
            {"id": "b3", "speaker": "lin", "text": "上周六我们去爬了黄山", "at": AT}]
    bulk = store.for_tenant(store.tenant + "-bulk")
    try:
        for r in rows:
            store.ingest(r["text"], id=r["id"], speaker=r["speaker"], at=r["at"])
        bulk.ingest_bulk(rows, batch_size=2)
        one_by_one = [(e.who, e.what, e.start, e.end, e.source) for e in store.episodes()]
        assert len(one_by_one) == 3
        assert [(e.who, e.what, e.start, e.end, e.source) for e in bulk.episodes()] == one_by_one
        before = canonical_hash(driver, store.tenant)
        store.rebuild()
        assert canonical_hash(driver, store.tenant) == before
        assert [(e.who, e.what, e.start, e.end, e.source) for e in store.episodes()] == one_by_one
    finally:
        bulk.drop_tenant()


def test_erase_removes_episodes_of_a_subject_or_source(store):
    store.ingest("I went to a support group yesterday.", id="e1", speaker="caroline", at=AT)
    store.ingest("I painted a sunset last week.", id="e2", speaker="melanie", at=AT)
    store.ingest("We went camping in the mountains last weekend.", id="e3", speaker="melanie", at=AT)
    request = store.request_erase(source="e2", reason="asked")
    assert [e.source for e in store.episodes(who="melanie")] == ["e3"]  # withheld at once
    store.cancel_erase(request["request"])
    assert {e.source for e in store.episodes(who="melanie")} == {"e2", "e3"}
    store.erase(source="e2", reason="asked")
    assert [e.source for e in store.episodes(who="melanie")] == ["e3"]
    store.erase(subject="caroline", reason="asked")
    assert store.episodes(who="caroline") == []
    assert {e.who for e in store.episodes()} == {"melanie"}
    assert all("support group" not in str(e["payload"]) for e in store.events())


def test_episodes_stay_in_their_tenant(store):
    other = store.for_tenant(store.tenant + "-other")
    try:
        store.ingest("I went to a support group yesterday.", id="t1", speaker="caroline", at=AT)
        other.ingest("I painted a sunset last week.", id="t1", speaker="caroline", at=AT)
        assert [e.what for e in store.episodes(who="caroline")] == ["went to a support group"]
        assert [e.what for e in other.episodes(who="caroline")] == ["painted a sunset"]
        other.erase(subject="caroline")
        assert [e.what for e in store.episodes(who="caroline")] == ["went to a support group"]
    finally:
        other.drop_tenant()
