"""Chinese gates beyond :func:`.gates.judge_zh` (which is full), for the readings issue #43 added.

* A trip told only by where the speaker is ("6.15-6.20我在东京", "下周我在成都，周二到周四") is a
  trip when the sentence bounds it or dates it ahead; "我在北京" alone may be home, a trip or an
  errand, and draws nothing. A sentence that names the trip (出差, 开会, 培训…) needs no date.
* A request addressed to the listener about how to answer the speaker ("以后你跟我说话用日语",
  "你回我用英文") is the speaker's preference: the 你 is who is asked, not whose fact it is.
"""

from __future__ import annotations

import re

from .gates import PREFERENCE_TOPICS, Verdict, judge_zh

__all__ = ["judge_more"]

_ASKED = re.compile(r"[你您](?=(?:以后|今后|就|都|请)?(?:跟我|和我|给我|回我|对我|回复|说话|用))")
_TRIP_WORDS = re.compile(r"出差|差旅|旅行|旅游|开会|度假|培训|参会|参展|出行|行程|学习|玩")


def judge_more(sentence: str, cue: int, a: int, b: int, topic: str, bounded: bool) -> Verdict | None:
    """A no where one of the rules above refuses the match, else None (the usual gate decides)."""
    if topic == "trip_city" and not bounded and sentence[max(cue, a - 1):a] == "在" \
            and not _TRIP_WORDS.search(sentence):
        return Verdict(False, why="where the speaker is, with no trip or dates")
    if topic in PREFERENCE_TOPICS and _ASKED.search(sentence[:cue]):
        return judge_zh(_ASKED.sub("请", sentence), cue, a, b, topic, False, bounded)
    return None
