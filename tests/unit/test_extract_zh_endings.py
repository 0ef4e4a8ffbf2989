"""A Chinese sentence that ends a held value by naming it (issue #43): "我已经不在X了", "X那边我已经
离职了", "从X搬走了" → a revoke of the held fact's topic; near-misses draw nothing.

The sentences are the tests' own, not the labelled sets'. No database: text and context in, events out.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.core.models import MessageEvent
from graphmem.extract import PriorFact, RuleExtractor

AT = datetime(2026, 3, 4, 9, tzinfo=timezone.utc)
D = datetime(2026, 2, 1, tzinfo=timezone.utc)
HELD = [PriorFact("f1", "lin", "employer", None, "网易", D, None, "lin", 1),
        PriorFact("f2", "lin", "home_city", None, "南京", D, None, "lin", 2)]



def run(ex: RuleExtractor, text: str) -> list[tuple[str, str | None]]:
    m = MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text)
    return [(e["op"], e.get("topic")) for e in ex.extract(m, HELD)]


@pytest.mark.parametrize("text, topic", [
    ("我已经不在网易了", "employer"),
    ("网易那边我已经辞职了", "employer"),
    ("我早就不住南京了", "home_city"),
    ("上个月从南京搬走了", "home_city"),
])
def test_a_held_value_ended(ex: RuleExtractor, text: str, topic: str) -> None:
    assert run(ex, text) == [("revoke", topic)]


@pytest.mark.parametrize("text", [
    "我已经不在网易了吗",  # a question
    "我可能不在网易了",  # a hedge
    "他已经不在网易了",  # someone else
    "我已经不在家了",  # not a held value
    "网易的同事都辞职了",  # the held name, but no ending of mine
])
def test_near_misses(ex: RuleExtractor, text: str) -> None:
    assert run(ex, text) == []
