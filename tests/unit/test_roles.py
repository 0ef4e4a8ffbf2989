"""Transcript rows in the ecosystem's shape (graphmem.store.transcripts, graphmem.extract.roles),
no database: who speaks, the ids made when absent, what a non-person's words may give."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.core.errors import ValidationError
from graphmem.core.models import parse_event
from graphmem.extract.roles import keep_drawn
from graphmem.store.transcripts import content_text, role_message, row_id
from graphmem.store.transcripts import message_event, transcript_events

NOW = datetime(2026, 9, 18, 10, tzinfo=timezone.utc)


def test_role_decides_the_speaker_and_how_its_words_are_drawn():
    user = role_message({"role": "user", "content": "I moved."}, 0, user="lin")
    named = role_message({"role": "user", "name": "mei", "content": "I moved."}, 1, user="lin")
    anon = role_message({"role": "user", "content": "I moved."}, 2)
    bot = role_message({"role": "assistant", "content": "Noted."}, 3, user="lin")
    tool = role_message({"role": "tool", "content": "200 OK", "tool_call_id": "c1"}, 4, user="lin")
    system = role_message({"role": "system", "content": "Be brief."}, 5, user="lin")
    assert (user["speaker"], named["speaker"], anon["speaker"]) == ("lin", "mei", "user")
    assert "drawn_as" not in user  # a person's words: stated
    assert (bot["speaker"], bot["drawn_as"]) == ("assistant", "inferred")
    assert (tool["speaker"], tool["drawn_as"], tool["kind"]) == ("tool", "inferred", "tool")
    assert (system["speaker"], system["drawn_as"]) == ("system", "inferred")


def test_content_parts_give_their_text_only():
    parts = [{"type": "text", "text": "I live in Berlin."}, {"type": "image_url", "image_url": {"url": "x"}},
             {"type": "text", "text": "Since May."}]
    assert content_text(parts) == "I live in Berlin.\nSince May."
    assert content_text("plain") == "plain"
    with pytest.raises(ValidationError):
        content_text({"text": "not a list"})


def test_made_ids_are_deterministic_and_positional():
    rows = [{"role": "user", "content": "yes"}, {"role": "user", "content": "yes"}]
    first = transcript_events(rows, NOW, session="s1")
    again = transcript_events(rows, NOW, session="s1")
    other = transcript_events(rows, NOW, session="s2")
    assert [e["id"] for e in first] == [e["id"] for e in again]  # re-adding makes the same ids
    assert first[0]["id"] != first[1]["id"]  # two equal rows at two places stay two messages
    assert first[0]["id"] != other[0]["id"]
    assert first[0]["id"] == row_id("s1", 0, "user", "yes")
    given = transcript_events([{"role": "user", "content": "yes", "id": "m-7"}], NOW)
    assert given[0]["id"] == "m-7"


def test_row_times_and_defaults():
    e = role_message({"role": "user", "content": "hi", "created_at": 1_790_000_000}, 0)
    assert e["at"] == datetime.fromtimestamp(1_790_000_000, tz=timezone.utc)
    e = role_message({"role": "user", "content": "hi", "timestamp": "2026-09-01T00:00:00Z"}, 0, at="2026-01-01")
    assert e["at"] == "2026-09-01T00:00:00Z"
    e = role_message({"role": "user", "content": "hi", "created_at": None}, 0, at="2026-01-01")
    assert e["at"] == "2026-01-01"  # a null time is no time: the default holds
    e = message_event({"role": "user", "content": "hi"}, NOW, 0, session="s9")
    assert (e["at"], e["session"]) == (NOW, "s9")
    parse_event(e)  # a valid message event


def test_unknown_fields_ignored_in_role_rows_refused_in_speaker_rows():
    e = message_event({"role": "assistant", "content": "ok", "tool_calls": [], "refusal": None}, NOW)
    assert set(e) <= {"op", "id", "speaker", "text", "at", "drawn_as", "drawn"}  # drawn: [] (names nobody)
    with pytest.raises(ValidationError, match="unknown transcript field"):
        message_event({"id": "m1", "speaker": "lin", "text": "hi", "mood": "good"}, NOW)


@pytest.mark.parametrize("row, error", [
    ({"role": "robot", "content": "hi"}, "'role' must be one of"),
    ({"role": "user", "content": ""}, "no text"),
    ({"role": "user", "content": [{"type": "image_url"}]}, "no text"),
    ({"role": "user", "content": "hi", "name": 3}, "'name' must be a string"),
])
def test_bad_rows_are_refused_with_their_position(row, error):
    with pytest.raises(ValidationError, match=error) as e:
        transcript_events([{"role": "user", "content": "fine"}, row], NOW)
    assert str(e.value).startswith("message 1: ")


def test_a_non_persons_words_keep_no_self_fact_quote_or_episode():
    drawn = [{"op": "set", "subject": "assistant", "topic": "diet", "value": "vegetarian"},
             {"op": "set", "subject": "lasagna", "topic": "diet", "value": "vegan"},
             {"op": "source", "id": "m~quoted", "kind": "email", "at": "2026-09-01", "text": "x"},
             {"op": "quote", "source": "m", "quotes": "m~quoted", "claims": []},
             {"op": "episode", "who": "assistant", "what": "cooked", "end": "2026-09-01"}]
    assert keep_drawn(drawn, "assistant", "inferred") == [drawn[1]]
    assert keep_drawn(drawn, "lin", "stated") == drawn


def test_a_speaker_row_spoken_by_the_assistant_is_not_a_persons():
    bot = message_event({"id": "m2", "speaker": "Assistant", "text": "Noted, vegetarian."}, NOW)
    person = message_event({"id": "m1", "speaker": "lin", "text": "I'm vegetarian."}, NOW)
    assert bot["drawn_as"] == "inferred" and "drawn_as" not in person
