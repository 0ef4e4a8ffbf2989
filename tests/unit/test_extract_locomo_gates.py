"""Issue #43: the wrong classes an annotator found among events drawn from real chat, each as a
general rule over the parse (episode_feelings.py, personal_gates.py, plan_time.py). Sentences
written for these tests, in several wordings."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.core.models import MessageEvent

AT = datetime(2026, 9, 28, 10, tzinfo=timezone.utc)  # a Monday



def draw(ex, text):
    return ex.draw(MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text))


def whats(ex, text):
    return [e["what"] for e in draw(ex, text) if e["op"] == "episode"]


def facts(ex, text):
    return {e["topic"]: e["value"] for e in draw(ex, text) if e["op"] == "set"}


@pytest.mark.parametrize("text", [
    "Here's the canyon I found last week.",
    "Look at this vase I made yesterday!",
    "That's a photo of the trail we hiked on Saturday.",
    "The soup I cooked last night turned out great.",
    "One special memory was this pride parade I went to a few weeks ago.",
])
def test_a_clause_on_a_noun_is_no_deed(ex, text):
    assert whats(ex, text) == []


@pytest.mark.parametrize("text", [
    "I loved the concert last night.",
    "We really enjoyed the festival on Sunday.",
    "I had a blast at the lake yesterday.",
    "Last week I felt so proud of my students.",
])
def test_a_feeling_is_no_deed(ex, text):
    assert whats(ex, text) == []


@pytest.mark.parametrize("text, what", [
    ("I went to the concert last night.", "went to the concert"),
    ("We hiked to the waterfall on Sunday.", "hiked to the waterfall"),
])
def test_the_event_itself_stays(ex, text, what):
    assert whats(ex, text) == [what]


@pytest.mark.parametrize("text", [
    "I'm planning a trip to Lisbon.",
    "We're considering a move to the coast.",
    "I'm prepping for my exam.",
])
def test_an_undated_intention_is_not_done(ex, text):
    assert whats(ex, text) == []


def test_a_dated_plan_stays_a_plan(ex):
    eps = [e for e in draw(ex, "I'm planning a trip to Lisbon next month.") if e["op"] == "episode"]
    assert [e.get("planned") for e in eps] == [True]


@pytest.mark.parametrize("text, what", [
    ("I had the chance to interview a famous chef.", "interview a famous chef"),  # "the chance to": no clause on a noun
    ("I planned a surprise party for my brother.", "planned a surprise party for my brother"),  # the planning is done
])
def test_not_caught_by_the_new_rules(ex, text, what):
    assert whats(ex, text) == [what]


def test_preparing_a_thing_is_a_deed(ex):
    assert whats(ex, "Yesterday I prepared dinner for my parents.") == ["prepared dinner for my parents"]


@pytest.mark.parametrize("text", [
    "The Wolves are my team.",
    "I'm so proud of my team.",
    "Our team worked hard this season.",
])
def test_a_bare_team_is_no_value(ex, text):
    assert "team" not in facts(ex, text)


@pytest.mark.parametrize("text, topic", [
    ("My late grandma was a baker.", "grandmother"),
    ("My grandpa passed away last year.", "grandfather"),
    ("I lost my dad in March.", "father"),
    ("We went to the funeral of my uncle's wife, and my mom cried.", "mother"),
    ("She was my grandma and the kindest person I knew.", "grandmother"),
])
def test_a_relative_who_died_is_no_current_fact(ex, text, topic):
    assert topic not in facts(ex, text)


@pytest.mark.parametrize("text, topic, value", [
    ("My wife and I went to the beach yesterday.", "wife", "wife"),
    ("My grandma is teaching me to knit.", "grandmother", "grandma"),
])
def test_a_living_relative_stays(ex, text, topic, value):
    assert facts(ex, text).get(topic) == value


@pytest.mark.parametrize("text", [
    "I'm going to Paris someday.",
    "I'm going to Paris next summer.",
    "We will visit Rome one of these days.",
])
def test_an_undated_future_trip_is_not_the_current_trip(ex, text):
    assert "trip_city" not in facts(ex, text)


def test_a_future_trip_with_a_day_is_dated(ex):
    trip = [e for e in draw(ex, "I'm flying to Paris next week.") if e.get("topic") == "trip_city"]
    assert trip and trip[0]["valid_from"].startswith("2026-10-05")


def test_a_trip_going_on_now_stays(ex):
    assert facts(ex, "I'm in Chicago for a conference until Oct 2.").get("trip_city") == "Chicago"



@pytest.mark.parametrize("text, word, whole", [
    ("I love wine tasting.", "wine", "wine tasting"),
    ("We adore street food markets.", "street", "street food markets"),
])
def test_a_compound_is_kept_whole(ex, text, word, whole):
    from graphmem.extract.openvocab import OpenFound
    from graphmem.extract.personal_gates import whole_compound
    doc = ex.nlp("en")(text)
    sent = next(iter(doc.sents))
    a = doc.text.index(word)
    got = whole_compound(sent, OpenFound("likes.x", word, (a, a + len(word)), False, gated=True))
    assert got.value == whole
