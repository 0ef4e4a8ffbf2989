"""Personal facts (issue 14, LoCoMo yield): family, pets, owned things, studies and likes, in
English and Chinese; undated episodes ("had a picnic", "doing kickboxing", "was in Paris") and
"lately" ranges. Sentences are written for these tests, not taken from any data set."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.core.models import MessageEvent

AT = datetime(2026, 9, 28, 10, tzinfo=timezone.utc)  # a Monday



def msg(text):
    return MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text)


def facts(ex, text):
    return sorted((e["topic"], e["value"], e.get("authority"), e.get("status"))
                  for e in ex.extract(msg(text)) if e["op"] == "set")


def whats(ex, text):
    return [(e.what, e.start.date().isoformat() if e.start else None, e.end.date().isoformat())
            for e in ex.episodes(msg(text))]


@pytest.mark.parametrize("text, expected", [
    ("My husband and I repainted the fence.", [("husband", "husband")]),
    ("Our two kids love the beach.", [("children", "two kids")]),
    ("My sister Emma is visiting from Leeds.", [("sister", "Emma")]),
    ("I have two cats, Miso and Tofu.", [("cat", "Miso and Tofu")]),
    ("We adopted a puppy in June.", [("dog", "puppy")]),
    ("Sales were slow at my flower shop this month.", [("shop", "flower shop")]),
    ("I'm studying counseling at night.", [("field_of_study", "counseling")]),
    ("I love hiking.", [("likes.hiking", "hiking")]),
    ("I enjoy baking sourdough.", [("likes.baking_sourdough", "baking sourdough")]),
    ("I'm a huge fan of Studio Ghibli.", [("likes.studio_ghibli", "Studio Ghibli")]),
    ("我有两个孩子。", [("children", "两个孩子")]),
    ("我养了一只猫。", [("cat", "一只猫")]),
    ("我在学心理学。", [("field_of_study", "心理学")]),
])
def test_personal_facts_are_l2_candidates(ex, text, expected):
    assert facts(ex, text) == sorted((t, v, "L2", "candidate") for t, v in expected)


@pytest.mark.parametrize("text", [
    "Do you have a dog?",
    "You said your husband is a chef.",
    "If I ever have kids I'd want a big garden.",
    "My future kids will laugh at this.",
    "I don't have any pets.",
    "She has three cats.",
    "I'd love to learn the violin.",
    "I love that you called!",
    "I love your painting.",
    "I love the view from here.",
    "I'm not into sports.",
    "I'm not studying anything right now.",
    "I saw the flyer at my local pet store.",
    "We used to play at my old house.",
    "如果我有孩子，我会教他画画。",
    "我没有养狗。",
    "你老公在哪里上班？",
])
def test_personal_traps_draw_nothing(ex, text):
    assert facts(ex, text) == []


def test_one_topic_per_relation_so_nothing_supersedes(ex):
    got = facts(ex, "My wife and our daughter took our dog out.")
    assert {t for t, *_ in got} == {"wife", "daughter", "dog"}


@pytest.mark.parametrize("text, expected", [
    # an undated deed is dated at the message: done by the end of its day
    ("I just had a picnic with my neighbours.", [("had a picnic with my neighbours", None, "2026-09-29")]),
    # "next" inside a noun phrase is no time ahead
    ("I rented a van for the move to my next flat.", [("rented a van for the move to my next flat", None, "2026-09-29")]),
    # "doing" with an activity for its object is going on now
    ("I'm doing kickboxing.", [("doing kickboxing", "2026-09-28", "2026-09-29")]),
    # "lately" / "recently" on something going on: a range ending at the message
    ("I've been painting a lot lately.", [("painting", "2026-08-29", "2026-09-29")]),
    ("Lately I've been swimming at the lido after work.", [("swimming at the lido after work", "2026-08-29", "2026-09-29")]),
    ("I was in Paris last week.", [("was in Paris", "2026-09-21", "2026-09-28")]),
    # a clause of its own does not share the other clause's negation
    ("I didn't bring a jacket, but I borrowed a scarf from my aunt.", [("borrowed a scarf from my aunt", None, "2026-09-29")]),
])
def test_undated_and_ongoing_episodes(ex, text, expected):
    assert whats(ex, text) == expected


@pytest.mark.parametrize("text", [
    "I'm doing well, thanks.",
    "I'm doing my best.",
    "I've been struggling lately.",
    "I was in a bad mood.",
    "I didn't go to the party and didn't call anyone.",
])
def test_not_episodes(ex, text):
    assert whats(ex, text) == []
