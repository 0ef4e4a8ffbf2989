"""Chinese spans of days and stays (issue #43): weekday ranges, month.day ranges, a week as the
span of a stay, "X前", a return day after a range, trips told by where the speaker is, hotel
chains, and a side question after a statement — each with near-misses that must draw nothing
(or nothing bounded).

The sentences are the tests' own, not the labelled sets'. No database: text in, events out.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.core.models import MessageEvent
from graphmem.extract import RuleExtractor
from graphmem.extract.zh_dates import find_dates

AT = datetime(2026, 3, 4, 9, tzinfo=timezone.utc)  # a Wednesday



def sets(ex: RuleExtractor, text: str) -> list[tuple[str, str, str | None, str | None]]:
    m = MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text)
    return [(e["topic"], e["value"], (e.get("valid_from") or "")[:10] or None, (e.get("valid_to") or "")[:10] or None)
            for e in ex.extract(m) if e["op"] == "set"]


def spans(text: str) -> list[tuple[str, str | None, str]]:
    return [(d.start.date().isoformat(), d.end.date().isoformat() if d.end else None, d.role)
            for d in find_dates(text, AT)]


@pytest.mark.parametrize("text, want", [
    ("下周二到周四去培训", [("2026-03-10", "2026-03-13", "range")]),
    ("周四到周五都不在", [("2026-03-05", "2026-03-07", "range")]),
    ("下周我请假，周一到周三", [("2026-03-09", "2026-03-12", "range")]),
    ("7.1-7.3我请假", [("2026-07-01", "2026-07-04", "range")]),
    ("下周都用英文吧", [("2026-03-09", "2026-03-16", "range")]),
    ("本周我在外地", [("2026-03-08", None, "until")]),
    ("周五前交", [("2026-03-06", None, "end")]),
    ("20号前搬完", [("2026-03-20", None, "end")]),
])
def test_chinese_spans(text: str, want: list[tuple[str, str | None, str]]) -> None:
    assert spans(text) == want


@pytest.mark.parametrize("text", ["这周入职了新公司", "版本1.2-1.5都有这个问题", "这周末去爬山", "周三到周一"])
def test_no_span(text: str) -> None:
    assert [s for s in spans(text) if s[2] == "range" or s[1] is not None] == []


@pytest.mark.parametrize("text, want", [
    ("下周一到周三在青岛出差，周四回公司", ("trip_city", "青岛", "2026-03-09", "2026-03-12")),
    ("7.6-7.9我在大阪，消息回得慢", ("trip_city", "大阪", "2026-07-06", "2026-07-10")),
    ("下周我在苏州，周二到周四", ("trip_city", "苏州", "2026-03-10", "2026-03-13")),
    ("这周在合肥出差，电话联系", ("trip_city", "合肥", None, "2026-03-09")),
    ("到周五为止我都在厦门", ("trip_city", "厦门", None, "2026-03-07")),
    ("出差住万达旁边的汉庭", ("trip_lodging", "汉庭", None, None)),
    ("暂住如家（西单店）", ("trip_lodging", "如家（西单店）", None, None)),
])
def test_stays(ex: RuleExtractor, text: str, want: tuple[str, str, str | None, str | None]) -> None:
    assert want in sets(ex, text)


@pytest.mark.parametrize("text", [
    "我在北京，有空约",  # where I am, no trip and no dates: home, a trip or an errand
    "我现在在开会",  # not a city
    "下周在北京吗",  # a question
    "我住酒店",  # no hotel named
])
def test_stay_near_misses(ex: RuleExtractor, text: str) -> None:
    assert [s for s in sets(ex, text) if s[0].startswith("trip_")] == []


def test_a_side_question_does_not_silence_the_statement(ex: RuleExtractor) -> None:
    got = sets(ex, "3月10日-3月12日在重庆开会，有重庆的朋友吗")
    assert ("trip_city", "重庆", "2026-03-10", "2026-03-13") in got


@pytest.mark.parametrize("text", ["我下周去重庆出差，可以吗", "你下周在重庆出差吧，对吗"])
def test_a_question_about_the_statement_keeps_it_a_question(ex: RuleExtractor, text: str) -> None:
    assert sets(ex, text) == []


@pytest.mark.parametrize("text, want", [
    ("下周二去青岛出差，周五回来", ("trip_city", "青岛", "2026-03-10", "2026-03-14")),
    ("下周五去青岛出差，周一回来", ("trip_city", "青岛", "2026-03-13", "2026-03-17")),
    ("这两天借住在同学宿舍", ("home_address", "同学宿舍", None, "2026-03-06")),
])
def test_returns_and_dorms(ex: RuleExtractor, text: str, want: tuple[str, str, str | None, str | None]) -> None:
    assert want in sets(ex, text)


@pytest.mark.parametrize("text", ["我住宿舍", "宿舍太吵了"])
def test_a_dorm_with_no_name(ex: RuleExtractor, text: str) -> None:
    assert sets(ex, text) == []
