"""Precision on English chat (issue #43): a quantifier is no allergen ("allergic to nothing"), a
verb with its object ends a list ("…, eating everything"), and a sentence opened by a chat hedge
("prob", "prolly", "probably") states nothing. Sentences of our own, with near-misses."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.extract import RuleExtractor
from tests.extract_sets import set_pairs
from graphmem.extract.en_lists import list_item
from graphmem.extract.values import clean

AT = datetime(2026, 3, 10, 9, tzinfo=timezone.utc)



def _sets(ex: RuleExtractor, text: str) -> list[tuple[str, str]]:
    return set_pairs(ex, text, AT)


@pytest.mark.parametrize("text", [
    "allergic to nothing, eating everything", "I'm allergic to none of that", "allergic to nada lol",
])
def test_a_quantifier_is_no_allergen(ex: RuleExtractor, text: str) -> None:
    assert [v for t, v in _sets(ex, text) if t == "allergy"] == []


def test_a_real_list_still_draws_every_item(ex: RuleExtractor) -> None:
    assert sorted(v for t, v in _sets(ex, "I'm allergic to peanuts, shellfish and kiwi") if t == "allergy") == [
        "kiwi", "peanuts", "shellfish"]
    assert [v for t, v in _sets(ex, "allergic to peanuts, nothing else") if t == "allergy"] == ["peanuts"]


@pytest.mark.parametrize("piece,kept", [
    ("eating everything", None), ("working on it", None), ("nothing", None),
    ("icing", "icing"), ("pudding", "pudding"), ("dressing", "dressing"),
])
def test_a_verb_with_its_object_ends_a_list_a_food_in_ing_does_not(piece: str, kept: str | None) -> None:
    assert list_item(piece) == kept


def test_clean_leaves_single_valued_words_alone() -> None:
    assert clean("nothing", "en", None, False) == "nothing"  # only list (many-valued) values are things
    assert clean("nothing", "en", None, True) == ""


@pytest.mark.parametrize("text", [
    "prob gonna be in Munich for the offsite", "prolly moving to Denver next year",
    "probably in Boston Monday to Wednesday", "possibly at Globex from May",
])
def test_a_chat_hedge_at_the_head_states_nothing(ex: RuleExtractor, text: str) -> None:
    assert _sets(ex, text) == []


def test_a_plain_statement_after_a_hedged_clause_still_draws(ex: RuleExtractor) -> None:
    assert ("home_city", "Denver") in _sets(ex, "I live in Denver, so replies may be slow")
