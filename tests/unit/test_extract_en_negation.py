"""A negated clause draws nothing, and does not take another clause's statement with it (issue #43,
item 1): "I'm not vegetarian, but I'm allergic to nuts" reads like "not X but Y" (a correction
cue), yet only the allergy is stated. Sentences of our own."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.extract import RuleExtractor
from tests.extract_sets import set_pairs
from graphmem.extract.en_corrections import negated_in_clause
from graphmem.extract.rules import PriorFact

AT = datetime(2026, 3, 10, 9, tzinfo=timezone.utc)



def _sets(ex: RuleExtractor, text: str, context: list[PriorFact] | None = None) -> list[tuple[str, str]]:
    return set_pairs(ex, text, AT, context or [])


@pytest.mark.parametrize("text,kept", [
    ("I'm not vegetarian, but I'm allergic to nuts", ("allergy", "nuts")),
    ("I am not vegan but I am allergic to soy", ("allergy", "soy")),
    ("not vegetarian or anything, but I'm allergic to shellfish", ("allergy", "shellfish")),
])
def test_a_negated_clause_draws_nothing_and_keeps_the_other(ex: RuleExtractor, text: str,
                                                           kept: tuple[str, str]) -> None:
    got = _sets(ex, text)
    assert kept in got
    assert not any(t == "diet" for t, _ in got)


def test_a_contrastive_not_after_the_value_is_still_a_correction(ex: RuleExtractor) -> None:
    held = PriorFact(uid="f1", subject="ana", topic="office", env=None, value="C41",
                     valid_from=datetime(2026, 2, 1, tzinfo=timezone.utc), valid_to=None, author="ana", seq=1)
    assert _sets(ex, "wait no, my desk is C14 not C41", [held]) == [("office", "C14")]


@pytest.mark.parametrize("sentence,value,negated", [
    ("I'm not vegetarian, but I'm allergic to nuts", "vegetarian", True),
    ("I'm not vegetarian, but I'm allergic to nuts", "nuts", False),
    ("my desk is C14 not C41", "C14", False),
    ("I never was vegan", "vegan", True),
    ("I don't eat meat so I'm vegetarian", "vegetarian", False),
])
def test_negation_is_read_per_clause(sentence: str, value: str, negated: bool) -> None:
    assert negated_in_clause(sentence, sentence.index(value)) is negated


@pytest.mark.parametrize("text", [
    "everyone thinks I live in Paris", "people assume I live in Paris", "my mom thinks I work at Globex",
    "Tom said I live in Paris", "somebody claimed I work at Globex",
])
def test_what_others_say_or_think_of_me_is_not_my_statement(ex: RuleExtractor, text: str) -> None:
    assert [t for t, _ in _sets(ex, text) if t in ("home_city", "employer")] == []


@pytest.mark.parametrize("text,fact", [
    ("I said I live in Paris", ("home_city", "Paris")),
    ("like I said, I live in Paris", ("home_city", "Paris")),
    ("I told them I work at Globex", ("employer", "Globex")),
])
def test_what_i_say_of_myself_still_counts(ex: RuleExtractor, text: str, fact: tuple[str, str]) -> None:
    assert fact in _sets(ex, text)
