"""A fact whose subject is a person no name or relation ties to the speaker — "the new guy",
"someone", "everyone here" — is someone else's: nothing is drawn for the speaker. Before, such a
noun subject fell through to the speaker ("The guy next door works at Google" gave the speaker's
employer). Sentences of our own."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.extract import RuleExtractor
from tests.extract_sets import set_pairs

AT = datetime(2026, 3, 10, 9, tzinfo=timezone.utc)



def _sets(ex: RuleExtractor, text: str) -> list[tuple[str, str]]:
    return set_pairs(ex, text, AT)


@pytest.mark.parametrize("text", [
    "The new guy on my team is vegan.",
    "Someone in my book club is allergic to peanuts.",
    "The guy next door works at Google.",
    "Everyone here works at Acme.",
    "People in my building are vegetarian.",
    "a woman from my gym lives in Denver",
    "Somebody at the office is allergic to cats.",
])
def test_someone_elses_fact_is_not_the_speakers(ex: RuleExtractor, text: str) -> None:
    assert _sets(ex, text) == []


@pytest.mark.parametrize("text,drawn", [
    ("I work at Google.", ("employer", "Google")),
    ("I'm vegan, unlike the new guy.", ("diet", "vegan")),
    ("Moved to Denver!", ("home_city", "Denver")),
])
def test_the_speakers_own_fact_still_draws(ex: RuleExtractor, text: str, drawn: tuple[str, str]) -> None:
    assert drawn in _sets(ex, text)
