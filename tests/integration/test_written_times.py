"""write/facts stores every time it is sent. The query parses a time only once when the same text
comes again (a said_at equal to the recorded_at, a segment's bounds equal to its fact's) and
merges the batch's topics once; this holds it to storing, for every fact and every segment it
creates, exactly the times and topic the rows it was sent name — on a workload where both the
shortcut and the full parse are taken (quotes said before they were recorded, segments cut short
by a later value in the same batch). The reads send their times another way (instants), held to
the same times by the property test at the end."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings, strategies as st

from graphmem.store import client
from graphmem.store.projection.values import instant
from test_pipeline import T0, workload


def _time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


@pytest.mark.parametrize("seed", [1, 2])
def test_write_facts_stores_the_times_and_topics_it_was_sent(store, driver, monkeypatch, seed):
    sent: list[dict] = []
    real = client.check_call

    def spy(tenant, call):
        if call.name == "write/facts":
            names = call.params["topic_names"]
            sent.extend({**p, "topic_named": names[p["topic_index"]]} for p in call.params["facts"])
        return real(tenant, call)

    monkeypatch.setattr(client, "check_call", spy)
    at = (T0 + timedelta(days=100)).isoformat()
    bounded = [  # closed intervals: on a many-valued topic a segment keeps its fact's bounds, on a
        # one-valued topic a later value cuts the first one's segments out of its fact's bounds
        {"op": "set", "subject": "lin", "topic": "tags", "value": "x", "valid_from": "2025-01-01T00:00:00+00:00",
         "valid_to": "2025-12-01T00:00:00+00:00", "recorded_at": at, "id": "b1"},
        {"op": "set", "subject": "acme", "topic": "port", "value": "p1", "valid_from": "2025-01-01T00:00:00+00:00",
         "valid_to": "2025-12-01T00:00:00+00:00", "recorded_at": at, "id": "b2"},
        {"op": "set", "subject": "acme", "topic": "port", "value": "p2", "valid_from": "2025-06-01T00:00:00+00:00",
         "valid_to": "2025-09-01T00:00:00+00:00", "recorded_at": at, "id": "b3"}]
    store.apply_bulk(workload(seed) + bounded, batch_size=7)
    assert sent

    facts, _, _ = driver.execute_query(
        "MATCH (f:Fact {tenant: $t})-[:ABOUT]->(topic:Topic) RETURN f.uid AS uid, f.valid_from AS vf, "
        "f.valid_to AS vt, f.recorded_at AS rec, f.said_at AS said, f.expires_at AS exp, topic.name AS topic",
        t=store.tenant)
    segments, _, _ = driver.execute_query(
        "MATCH (:Entity {tenant: $t})-[h:HOLDS]->(:Fact) RETURN h.seg AS seg, h.valid_from AS vf, "
        "h.valid_to AS vt, h.recorded_at AS rec, h.expires_at AS exp", t=store.tenant)
    stored = {r["uid"]: r for r in facts}
    held = {r["seg"]: r for r in segments}
    said_apart = cut_short = same_end = 0
    for p in sent:
        f = stored[p["uid"]]
        assert p["topic"] == p["topic_named"] == f["topic"]
        for key, field in (("valid_from", "vf"), ("valid_to", "vt"), ("recorded_at", "rec"), ("said_at", "said"),
                           ("expires_at", "exp")):
            assert _time(p[key]) == (f[field] and f[field].to_native()), (p["uid"], key)
        said_apart += p["said_at"] != p["recorded_at"]
        for s in p["segments"]:
            h = held.get(s["seg"])
            if h is None:  # closed by a later batch at the record time it began: never visible, deleted
                continue
            for key, field in (("valid_from", "vf"), ("valid_to", "vt"), ("recorded_at", "rec"), ("expires_at", "exp")):
                assert _time(s[key]) == (h[field] and h[field].to_native()), (s["seg"], key)
            cut_short += s["valid_to"] != p["valid_to"] or s["valid_from"] != p["valid_from"]
            same_end += s["valid_to"] is not None and s["valid_to"] == p["valid_to"]
    assert said_apart and cut_short and same_end  # both ways through the query were taken


_ZONES = st.sampled_from([None, timezone.utc, timezone(timedelta(hours=5, minutes=30)), timezone(-timedelta(hours=8))])


@settings(max_examples=200, deadline=None)
@given(t=st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=_ZONES))
def test_a_time_sent_as_an_instant_is_the_time_its_iso_text_names(driver, neo4j_target, t):
    """Reads send their times as ``{epochSeconds, nanosecond}`` maps (graphmem.store.projection.values.instant);
    the server must build the very instant it builds from the ISO text — before 1970 (negative
    seconds), to the microsecond, from any offset, and from a naive time read as UTC. Sent in UTC,
    as graphmem's times all are (graphmem.core.fields.parse_time), the two are equal: ``=`` on
    DateTimes also compares the offset, which the map, an instant, does not carry."""
    aware = t if t.tzinfo else t.replace(tzinfo=timezone.utc)
    records, _, _ = driver.execute_query(
        "WITH datetime($m) AS m, datetime($iso) AS iso, datetime($utc) AS utc "
        "RETURN m.epochSeconds = iso.epochSeconds AND m.nanosecond = iso.nanosecond AS same, m = utc AS equal",
        m=instant(t), iso=aware.isoformat(), utc=aware.astimezone(timezone.utc).isoformat(),
        database_=neo4j_target.settings.database)
    assert records[0]["same"] and records[0]["equal"], (t, instant(t))
