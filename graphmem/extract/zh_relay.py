"""An assistant relaying a user's words in Chinese ("好的，已为您记下：您对花生过敏").

docs/design.md §5 and tests/data/extraction/PEOPLE.md: an assistant's text is never a person's
fact, but where it repeats what the user said *to that user* ("你/您 …") and the message's
``about`` names the user, the relayed value is at most an L2 candidate about that user (the
write path makes it one: :mod:`.roles`). The gate is the person gate of :func:`.gates.judge_zh`
(:func:`.zh_gates.judge_zh_more`) read from the user's side: the addressee (你/您, not 你们) stands where "我" would. Without an
``about`` nobody is named ("好的，已记下您吃素。" draws nothing), and an assistant's sentence with
no second person ("这道菜是素的") is about no one: it draws nothing either.
"""

from __future__ import annotations

import re

from .gates import Verdict
from .zh_gates import judge_zh_more

__all__ = ["judge_relayed"]

_ADDRESSEE = re.compile(r"您|你(?!们)")
_PERSON = re.compile(r"我|您|你(?!们)")


def judge_relayed(sentence: str, cue: int, a: int, b: int, topic: str, bounded: bool, about: str | None) -> Verdict:
    """Gate one match of an assistant's (or tool's) Chinese sentence about a person's topic:
    ``about`` when the sentence tells the addressee their own value, else no."""
    if about is None:
        return Verdict(False, why="an assistant's words name nobody")
    people = _PERSON.findall(sentence[:a])
    if not people or people[-1] == "我":  # "我会记住你对芒果过敏" is still relayed; "你说我…" is not
        return Verdict(False, why="not relayed to the user")
    # The same length, so the match's offsets still hold: the addressee speaks.
    seen = _ADDRESSEE.sub("我", sentence)
    verdict = judge_zh_more(seen, cue, a, b, topic, False, bounded)
    if not verdict.ok or verdict.subject != "@speaker":
        return Verdict(False, why=verdict.why or "not relayed to the user")
    return Verdict(True, about, verdict.negated)
