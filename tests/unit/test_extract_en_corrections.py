"""English corrections beyond "X, not Y" right beside each other (issue #43, item 3): a cleft
("It was Globex that hired me, not Initech"), a held value corrected by its number ("Oak Road 27
not 72"), and a correction of the speaker's own previous message (no old document). Sentences of
our own; each with near-misses that must draw no correction."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

from graphmem.core.models import MessageEvent
from graphmem.extract import RuleExtractor
from graphmem.extract.en_corrections import cleft_value, corrects_own_message, renumbered
from graphmem.extract.rules import PriorFact

AT = datetime(2026, 3, 10, 9, tzinfo=timezone.utc)
HELD_FROM = datetime(2026, 2, 1, tzinfo=timezone.utc)



def _held(topic: str, value: str) -> PriorFact:
    return PriorFact(uid="f1", subject="ana", topic=topic, env=None, value=value, valid_from=HELD_FROM,
                     valid_to=None, author="ana", seq=1)


def _draw(ex: RuleExtractor, text: str, held: PriorFact) -> list[dict[str, Any]]:
    m = MessageEvent(op="message", id="m1", at=AT, speaker="ana", text=text)
    return [{k: e.get(k) for k in ("op", "fact", "topic", "value", "valid_from")} for e in ex.extract(m, [held])
            if e["op"] in ("set", "retract", "revoke")]


@pytest.mark.parametrize("text,topic,old,new", [
    ("It was Globex that hired me, not Initech", "employer", "Initech", "Globex"),
    ("It's Globex I work for, not Initech.", "employer", "Initech", "Globex"),
    ("Sorry: it's amoxicillin that I'm allergic to, not penicillin", "allergy", "penicillin", "amoxicillin"),
    ("It's really Lisbon, not Porto, that I live in", "home_city", "Porto", "Lisbon"),
])
def test_a_cleft_correction_replaces_the_held_value(ex: RuleExtractor, text: str, topic: str, old: str,
                                                    new: str) -> None:
    got = _draw(ex, text, _held(topic, old))
    assert {"op": "retract", "fact": "f1", "topic": None, "value": None, "valid_from": None} in got
    assert [e["value"] for e in got if e["op"] == "set"] == [new]
    assert all(e["valid_from"] == HELD_FROM.isoformat() for e in got if e["op"] == "set")


@pytest.mark.parametrize("text", [
    "It was fine, not Initech's fault",          # no value after "it was"
    "It's not Initech anymore",                  # an ending, not a correction
    "It's only fair, not Initech's call",
    "honestly it's what I said, not Initech",
])
def test_a_cleft_without_a_new_value_draws_no_swap(ex: RuleExtractor, text: str) -> None:
    assert cleft_value(text, text.index("not")) in (None, "fair")  # "fair": lower case, never a name's swap
    assert [e for e in _draw(ex, text, _held("employer", "Initech")) if e["op"] == "set"] == []


@pytest.mark.parametrize("text,held,new", [
    ("argh, Oak Road 27 not 72, my keyboard sticks", "Oak Road 72", "Oak Road 27"),
    ("flat 12, not 21", "Flat 21, 4 Oak Road", "Flat 12, 4 Oak Road"),
    ("typo: Birch Lane 18, not 81", "Birch Lane 81", "Birch Lane 18"),
])
def test_a_held_value_is_corrected_by_its_number(ex: RuleExtractor, text: str, held: str, new: str) -> None:
    assert renumbered(text, held) == new
    got = _draw(ex, text, _held("home_address", held))
    assert [e["value"] for e in got if e["op"] == "set"] == [new]
    assert any(e["op"] == "retract" for e in got)


@pytest.mark.parametrize("text,held", [
    ("room 127 not 72", "Oak Road 72"),          # digits differ in count
    ("Oak Road 27 and 72 are both nice", "Oak Road 72"),  # no "not"
    ("4 not 44", "44 Oak Road, Flat 44"),        # the old number twice in the held value
])
def test_no_renumbering_without_one_clear_number(text: str, held: str) -> None:
    assert renumbered(text, held) is None


@pytest.mark.parametrize("text", [
    "Small correction to my previous email: I work for Sanofi, not Servier.",
    "Quick correction on my last message: I work for Sanofi, not Servier",
    "typo in my earlier message - I work for Sanofi, not Servier",
])
def test_a_correction_of_my_own_message_is_no_old_document(ex: RuleExtractor, text: str) -> None:
    assert corrects_own_message(text)
    got = _draw(ex, text, _held("employer", "Servier"))
    assert [e["value"] for e in got if e["op"] == "set"] == ["Sanofi"]


@pytest.mark.parametrize("text", [
    "My previous email says I work for Servier",       # an old message quoted: no correction cue
    "my old contract says I work for Servier",
])
def test_an_old_document_still_asserts_nothing(ex: RuleExtractor, text: str) -> None:
    assert not corrects_own_message(text)
    assert [e for e in _draw(ex, text, _held("employer", "Initech")) if e["op"] == "set"] == []
