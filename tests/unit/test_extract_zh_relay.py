"""An assistant relaying a user's words in Chinese (issue #43): an L2 candidate about the row's
``about`` when the assistant tells the user their own value (你/您), and nothing otherwise.

The sentences are the tests' own, not the labelled sets'. No database: text in, kept events out
(graphmem.extract.roles.keep_drawn, as the write path applies it).
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.core.models import MessageEvent
from graphmem.extract import RuleExtractor
from graphmem.extract.roles import keep_drawn

AT = datetime(2026, 3, 10, 10, tzinfo=timezone.utc)



def kept(ex: RuleExtractor, text: str, about: str | None) -> list[tuple[str, str, str | None]]:
    m = MessageEvent(op="message", id="m1", at=AT, speaker="assistant", text=text, about=about, drawn_as="inferred")
    return [(e["subject"], e["topic"], e.get("value")) for e in keep_drawn(ex.extract(m), m.speaker, m.drawn_as)
            if e["op"] == "set"]


@pytest.mark.parametrize("text, topic, value", [
    ("好的，已经帮您记下了：您对猕猴桃过敏", "allergy", "猕猴桃"),
    ("了解，你现在住在苏州，之后活动推荐以苏州为主", "home_city", "苏州"),
    ("收到，你在京东上班，我记住了", "employer", "京东"),
    ("明白～你是素食主义者，菜谱我会避开肉类", "diet", "素食主义者"),
])
def test_relayed_to_the_user_is_about_them(ex: RuleExtractor, text: str, topic: str, value: str) -> None:
    assert kept(ex, text, "xiaoyu") == [("xiaoyu", topic, value)]


@pytest.mark.parametrize("text, about", [
    ("好的，已经帮您记下了：您对猕猴桃过敏", None),  # nobody named
    ("这道菜是素食，适合全家", "xiaoyu"),  # no addressee: the assistant's own words about a dish
    ("我对猕猴桃过敏，所以不推荐", "xiaoyu"),  # the assistant's "I"
    ("你们公司在杭州办公吗", "xiaoyu"),  # a question, and 你们 is not the user
    ("你可能对猕猴桃过敏，建议去医院查一下", "xiaoyu"),  # a guess
    ("你老婆在京东上班，对吧", "xiaoyu"),  # someone else's
    ("你说你不吃素", "xiaoyu"),  # negated
])
def test_near_misses_draw_nothing(ex: RuleExtractor, text: str, about: str | None) -> None:
    assert kept(ex, text, about) == []


def test_a_person_saying_you_is_still_no_fact_about_anyone(ex: RuleExtractor) -> None:
    m = MessageEvent(op="message", id="m1", at=AT, speaker="lin", text="你对猕猴桃过敏", about="xiaoyu")
    assert [e for e in ex.extract(m) if e["op"] == "set"] == []


@pytest.mark.parametrize("text, value", [("我是纯素食者", "纯素食者"), ("我吃全素的", "全素"), ("就是所谓的蛋奶素", "蛋奶素")])
def test_diet_words(ex: RuleExtractor, text: str, value: str) -> None:
    m = MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text)
    assert [e["value"] for e in ex.extract(m) if e["op"] == "set"] == [value]
