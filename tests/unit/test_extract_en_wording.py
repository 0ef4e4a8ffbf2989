"""English wording read beyond the plain patterns (issue #43, second pass): stays bounded by
"till …", the office one sits in, homes named as "X is home", jobs named with a role, layoffs,
ports given per environment as "prod on N", chat dates ("tmrw", "since 2018", "till end of
month"), list values that stop at a remark — each with near-misses that must draw nothing.

The sentences are the tests' own, not the labelled sets'. No database: text in, events out.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.core.models import MessageEvent
from graphmem.extract import PriorFact, RuleExtractor
from graphmem.extract.en_lists import list_item, thing_beside

AT = datetime(2026, 3, 10, 10, tzinfo=timezone.utc)  # a Tuesday



def facts(ex: RuleExtractor, text: str, about: str | None = None) -> list[tuple[str, str, str | None, str | None]]:
    """(topic, value, valid_from day, valid_to day) of every set and revoke the text draws."""
    m = MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text, about=about)
    return [(e["topic"], e.get("value", ""), (e.get("valid_from") or e.get("effective") or "")[:10] or None,
             (e.get("valid_to") or "")[:10] or None)
            for e in ex.extract(m) if e["op"] in ("set", "revoke")]


@pytest.mark.parametrize("text, expected", [
    ("I'm in Porto till Friday for a workshop", ("trip_city", "Porto", None, "2026-03-14")),
    ("we're in Vienna until the 15th, back after that", ("trip_city", "Vienna", None, "2026-03-16")),
    ("In Madrid till Sunday, visiting my aunt", ("trip_city", "Madrid", None, "2026-03-16")),
    ("I'm at the Glasgow office all week", ("office", "Glasgow office", None, "2026-03-16")),
    ("working from the Utrecht hub until Thursday", ("office", "Utrecht hub", None, "2026-03-13")),
    ("desk 7.04 till end of month, mine is being rewired", ("office", "desk 7.04", None, "2026-04-01")),
    ("from tmrw I'm at desk 31 by the window", ("office", "desk 31", "2026-03-11", None)),
    ("Lisbon is home now, the weather alone was worth it", ("home_city", "Lisbon", None, None)),
    ("we finally settled in Denver after a year of moving around", ("home_city", "Denver", None, None)),
    ("moved back home to Glasgow last spring", ("home_city", "Glasgow", None, None)),
    ("I work as a pharmacist at Boots", ("employer", "Boots", None, None)),
    ("been with Siemens since 2019, on the rail side", ("employer", "Siemens", "2019-01-01", None)),
    ("jumped ship to Microsoft in January", ("employer", "Microsoft", "2026-01-01", None)),
    ("answer in spanish from now on please", ("reply_language", "spanish", None, None)),
    ("German please, thanks!", ("reply_language", "German", None, None)),
    ("we're at 41 Linden Road now, the green house", ("home_address", "41 Linden Road", None, None)),
    ("been veggie since like 2015, no regrets", ("diet", "veggie", "2015-01-01", None)),
    ("from Monday I'm at Unilever, can't wait", ("employer", "Unilever", "2026-03-16", None)),
    ("I live in Leiden, work in Amsterdam at Philips", ("employer", "Philips", None, None)),
    ("crashing at the Hilton Garden Inn till the 20th", ("trip_lodging", "Hilton Garden Inn", None, "2026-03-21")),
])
def test_a_new_wording_draws_its_fact(ex: RuleExtractor, text: str, expected: tuple[str, str, str | None, str | None]
                                      ) -> None:
    assert expected in facts(ex, text), facts(ex, text)


def test_being_laid_off_ends_the_job_from_the_date_named(ex: RuleExtractor) -> None:
    assert facts(ex, "got laid off from Initech in February, so I'm looking") == [
        ("employer", "", "2026-02-01", None)]


@pytest.mark.parametrize("text, expected", [
    ("billing-api: prod on 8443, staging on 8444", {("8443", "prod"), ("8444", "staging")}),
    ("staging now 6060, prod unchanged at 6000", {("6060", "staging"), ("6000", "prod")}),
    ("test on 4100, dev on 4000, prod's the usual 443", {("4100", "test"), ("4000", "dev"), ("443", "prod")}),
    ("prod: listening on :9091 now", {("9091", "prod")}),
])
def test_ports_per_environment_in_short_form(ex: RuleExtractor, text: str, expected: set[tuple[str, str]]) -> None:
    m = MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text, about="svc")
    assert {(e["value"], e.get("env")) for e in ex.extract(m) if e["op"] == "set"} == expected


@pytest.mark.parametrize("text", [
    "my sister is in Rome until Friday",  # someone else
    "is he in Rome until Friday?",  # a question
    "I'm in meetings until 3",  # not a place
    "if I were in Oslo until May I'd freeze",  # a hypothetical
    "I'm in the Berlin office Mondays and Fridays",  # a weekly habit, not where one sits now
    "I'm at the Leeds office every Tuesday",
    "Paris is home to the Louvre",  # a home of something else
    "I'm at Oxford Street now",  # a street, no number: not an address
    "test has 12 nodes, prod on the new cluster",  # no port
    "prod at 95% CPU again",  # a percentage
    "my brother got laid off from Initech",  # someone else
    "I had a veggie burger",  # food, not a diet
    "my boss works as a chef at Nandos",  # someone else
    "According to the wiki, billing listens on 8080 in prod.",  # hearsay of a document
    "I'm in Porto until the 9th, then Faro from the 10th to the 12th",  # an itinerary: one trip_city would misdate
    "crashing at my friend's place till Sunday",  # not a hotel
    "lol imagine being allergic to coffee",  # a hypothetical after an interjection
    "The docs say staging runs on 8081",  # a document's word, undated
    "test on 40 nodes",  # a count, not a port
    "staging now 120 pods",
    "the Bay Area is home base for the team",  # not a home
    "Tokyo is home now for my brother",  # someone else's home
    "I work as a volunteer at Oxfam",  # not an employer
])
def test_near_misses_draw_nothing(ex: RuleExtractor, text: str) -> None:
    assert [f for f in facts(ex, text, about="svc") if f[0] not in ("sister", "brother")] == []


@pytest.mark.parametrize("text, expected", [
    ("I'm allergic to kiwi, weirdly.", ["kiwi"]),
    ("allergic to latex, so gloves are a problem, sorry", ["latex"]),
    ("allergic to shrimp, crab and now apparently lobster", ["shrimp", "crab", "lobster"]),
    ("allergies: pollen, dust mites", ["pollen", "dust mites"]),
])
def test_a_list_stops_at_a_remark(ex: RuleExtractor, text: str, expected: list[str]) -> None:
    assert [v for t, v, _, _ in facts(ex, text) if t == "allergy"] == expected


@pytest.mark.parametrize("piece, item", [
    ("bee stings", "bee stings"), ("now apparently sesame", "sesame"), ("weirdly", None),
    ("tofu is out", None), ("sorry chef", None), ("the rest is fine", None), ("jelly", "jelly"),
])
def test_list_item(piece: str, item: str | None) -> None:
    assert list_item(piece) == item


def _held(topic: str, value: str) -> PriorFact:
    return PriorFact(uid="f1", subject="lin", topic=topic, env=None, value=value,
                     valid_from=datetime(2026, 3, 1, tzinfo=timezone.utc), valid_to=None, author="lin", seq=1)


@pytest.mark.parametrize("text, held, expected", [
    ("sorry, hazelnuts, not almonds! almonds are fine", "almonds", [("retract", None), ("set", "hazelnuts")]),
    ("not almonds but hazelnuts, my bad", "almonds", [("retract", None), ("set", "hazelnuts")]),
    ("oh no, not almonds!", "almonds", []),  # a remark, no new thing
    ("sorry, hazelnuts, not almonds", "peanuts", []),  # the rejected value is not held
])
def test_a_lower_case_correction_beside_a_held_value(ex: RuleExtractor, text: str, held: str,
                                                     expected: list[tuple[str, str | None]]) -> None:
    m = MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text)
    got = [(e["op"], e.get("value")) for e in ex.extract(m, [_held("allergy", held)])]
    assert got == expected


@pytest.mark.parametrize("sentence, cue_word, things", [
    ("sorry, pecans, not walnuts", "not walnuts", ["pecans"]),
    ("ugh, not walnuts", "not walnuts", []),
])
def test_thing_beside(sentence: str, cue_word: str, things: list[str]) -> None:
    cue = sentence.index(cue_word)
    assert thing_beside(sentence, cue, cue + len(cue_word)) == things
