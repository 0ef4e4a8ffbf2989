"""Chinese corrections of a held value (issue #43): a name beside "不是<held>", a date after "不是",
"不对不对" (no question), and "写成" (a slip, not a quoted document) — with near-misses.

The sentences are the tests' own, not the labelled sets'. No database: text and context in, events out.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.core.models import MessageEvent
from graphmem.extract import PriorFact, RuleExtractor

AT = datetime(2026, 3, 4, 9, tzinfo=timezone.utc)  # a Wednesday
HELD = datetime(2026, 2, 1, tzinfo=timezone.utc)



def held(topic: str, value: str, subject: str = "lin", env: str | None = None) -> PriorFact:
    return PriorFact(uid="f1", subject=subject, topic=topic, env=env, value=value, valid_from=HELD, valid_to=None,
                     author=subject, seq=1)


def run(ex: RuleExtractor, text: str, prior: PriorFact, about: str | None = None) -> list[tuple[str, str | None, str | None]]:
    m = MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text, about=about)
    return [(e["op"], e.get("value") or e.get("fact"), (e.get("valid_from") or "")[:10] or None)
            for e in ex.extract(m, [prior])]


@pytest.mark.parametrize("text, prior, want", [
    ("刚才打错了，我住的是望京西园，不是望京花园", held("home_address", "望京花园"), "望京西园"),
    ("说错了，不是蓝港，是金港", held("home_address", "蓝港"), "金港"),
    ("口误口误，我在的是小鹏，不是小米", held("employer", "小米"), "小鹏"),
])
def test_a_held_name_corrected(ex: RuleExtractor, text: str, prior: PriorFact, want: str) -> None:
    assert run(ex, text, prior) == [("retract", "f1", None), ("set", want, "2026-02-01")]


def test_a_date_corrected_after_no_no(ex: RuleExtractor) -> None:
    got = run(ex, "不对不对，入职是下周四，不是下周三", held("employer", "滴滴"))
    assert got == [("retract", "f1", None), ("set", "滴滴", "2026-03-12")]


def test_a_slip_is_no_quoted_document(ex: RuleExtractor) -> None:
    got = run(ex, "更正：预发端口应为 7002，上条消息写成 7020 了", held("port", "7020", "pay", "staging"), about="pay")
    assert ("set", "7002", "2026-02-01") in got and ("retract", "f1", None) in got


@pytest.mark.parametrize("text", [
    "我住的是望京西园，不是望京花园吗",  # a question
    "不是望京花园的那个朋友，是另一个",  # "不是<held>" names a friend there, not a wrong address
])
def test_near_misses(ex: RuleExtractor, text: str) -> None:
    assert ("retract", "f1", None) not in run(ex, text, held("home_address", "望京花园"))
