"""Episode shapes added for LoCoMo's yield (issue 14): a life event told in the passive ("I got
promoted"), a month named without a day ("last June", "in March", "this month"), an activity
told by learning / trying / planning / looking into a thing, and a date word inside a noun phrase
("a weekend pottery class"). Each with the traps it must not fire on. Sentences written for
these tests."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.core.models import MessageEvent

AT = datetime(2026, 9, 28, 10, tzinfo=timezone.utc)  # a Monday in September



def spans(ex, text):
    m = MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text)
    return [(e.what, e.start.date().isoformat() if e.start else None, e.end.date().isoformat(), e.planned)
            for e in ex.episodes(m)]


@pytest.mark.parametrize("text, expected", [
    ("Big news: I got promoted at the bank!", [("got promoted at the bank", None, "2026-09-29", False)]),
    ("We got married last June.", [("got married", "2026-06-01", "2026-07-01", False)]),
    ("I was hired by a small design studio in March.",
     [("was hired by a small design studio", "2026-03-01", "2026-04-01", False)]),
    ("I lost my job at the warehouse this month.",
     [("lost my job at the warehouse", "2026-09-01", "2026-09-29", False)]),
    ("Back in April we drove to the coast.", [("drove to the coast", "2026-04-01", "2026-05-01", False)]),
])
def test_life_events_and_named_months(ex, text, expected):
    assert spans(ex, text) == expected


@pytest.mark.parametrize("text", [
    "I got tired after the hike.",             # a feeling, not an event
    "I was amazed by the view.",
    "I wasn't selected for the team.",         # negated
    "If I get promoted I'll buy a boat.",      # hypothetical
    "Did you get promoted?",                   # a question
    "My sister got married in May.",           # someone else
])
def test_not_life_events(ex, text):
    assert spans(ex, text) == []


def test_a_month_ahead_is_no_episode_now(ex):
    # "in November" told in September: a plan, neither an episode today nor one last November
    assert spans(ex, "I'm running a half marathon in November.") == []


@pytest.mark.parametrize("text, what", [
    ("These days I'm learning the cello.", "learning the cello"),
    ("I'm trying aerial yoga at the new gym.", "trying aerial yoga at the new gym"),
    ("I've been looking into nursing as a career.", "looking into nursing as a career"),
])  # "I'm planning a trip to Lisbon." is an intention, not done (issue #43: test_extract_locomo_gates.py)
def test_activities_with_a_thing(ex, text, what):
    assert [e[0] for e in spans(ex, text)] == [what]


@pytest.mark.parametrize("text", [
    "I'm learning a ton.", "I'm trying to stay positive.", "I'm looking into it.",
    "I'm planning to call her.", "Are you learning the cello?", "I'm trying your recipe.",
])
def test_not_activities(ex, text):
    assert spans(ex, text) == []


def test_a_date_word_inside_a_noun_phrase_stays(ex):
    assert [e[0] for e in spans(ex, "I signed up for a weekend pottery class with my neighbour!")] == [
        "signed up for a weekend pottery class with my neighbour"]
    # a time of its own is still cut from the what
    assert spans(ex, "I went to the beach last weekend.") == [
        ("went to the beach", "2026-09-26", "2026-09-28", False)]


@pytest.mark.parametrize("text, expected", [
    # a time that opens the sentence dates each simple-past main verb of it
    ("Yesterday, I tried something new - I gave a talk at the library.",
     ("gave a talk at the library", "2026-09-27", "2026-09-28")),
    # a when-clause takes the time of the clause it hangs on
    ("I was so nervous last week when I showed my sketches to the club.",
     ("showed my sketches to the club", "2026-09-21", "2026-09-28")),
    # a gerund that names a thing does not take the time away from the going
    ("I went to a poetry reading last Friday - so good!", ("went to a poetry reading", "2026-09-25", "2026-09-26")),
    ("My cousins and I went camping last weekend.", ("went camping", "2026-09-26", "2026-09-28")),
    ("I graduated last week!", ("graduated", "2026-09-21", "2026-09-28")),
    ('I watched "The Two Towers" last night.', ('watched "The Two Towers"', "2026-09-27", "2026-09-29")),
])
def test_times_that_belong_to_the_deed(ex, text, expected):
    assert [e[:3] for e in spans(ex, text)] == [expected]


def test_a_time_that_opens_the_sentence_is_not_a_clause_on_a_noun(ex):
    # the post was made before; what happened last week was the letter
    assert spans(ex, "Last week, a reader wrote me after finding an old blog post I made.") == []


@pytest.mark.parametrize("text", ["I moved on.", "My brother graduated last week.", "I wish I had graduated."])
def test_not_events_without_an_object(ex, text):
    assert spans(ex, text) == []


def test_one_of_names_who(ex):
    assert [e[0] for e in spans(ex, "I just finished a scarf for one of my neighbours!")] == [
        "finished a scarf for one of my neighbours"]


def facts(ex, text):
    m = MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text)
    return [(e["topic"], e["value"]) for e in ex.extract(m) if e.get("op") == "set"]


@pytest.mark.parametrize("text, expected", [
    ("It's a lot of work, but I love running my own bakery.", [("business", "bakery")]),
    ("Orders are up for my biz this month.", [("business", "biz")]),
    ("I'm gonna open my own bakery next year.", []),
    ("I'm going full-time with my biz idea.", []),
])
def test_what_the_speaker_runs(ex, text, expected):
    assert facts(ex, text) == expected
