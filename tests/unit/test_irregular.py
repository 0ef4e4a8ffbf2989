"""Irregular verbs in the text legs: a question's base form finds a turn's past form and back."""

from __future__ import annotations

import pytest

from graphmem.recall.episodic import lucene_en
from graphmem.recall.irregular import forms


@pytest.mark.parametrize("word,expected", [
    ("win", ["won"]), ("meet", ["met"]), ("bought", ["buy"]), ("went", ["go", "gone"]), ("Took", ["take", "taken"]),
    ("paint", []), ("visited", []),
    # a form that is also a common noun or an auxiliary brings nothing: "left", "found", "saw", "got", "had"
    ("left", []), ("found", []), ("saw", []), ("got", []), ("had", []),
])
def test_forms(word, expected):
    assert forms(word) == expected


def test_the_text_leg_asks_for_the_other_forms_but_not_as_authors():
    q = lucene_en("t1", ["Nate", "win", "tournament"], ["Nate"], 1.0) or ""
    assert 'text:"won"' in q and 'text:"win"' in q and 'text:"tournament"' in q
    assert 'author:"won"' not in q and 'author:"Nate"^1' in q
