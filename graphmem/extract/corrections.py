"""Corrections the vocabulary's patterns do not read, anchored in what the store holds.

"X, not Y" with Y a value the speaker holds, and a correction cue with one number ("打错字了，是8600"):
:mod:`.statements` asks :func:`swapped` whether a sentence is such a correction, and for its events.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

from ..core.models import MessageEvent
from .base import REJECTED_BEFORE, PriorFact
from .en_corrections import cleft_value, renumbered
from .en_lists import thing_beside
from .zh_corrections import swapped_zh

__all__: list[str] = []

# Capitalised words that are never a corrected value ("Sorry", "Typo", "I").
_NOT_VALUES = {"i", "sorry", "typo", "oops", "correction", "my", "no", "wait", "actually", "it", "the", "not", "prod",
               "production", "staging", "test", "dev", "please", "ok", "okay", "yes", "oh", "ah", "hmm", "argh", "ugh"}


def swapped(m: MessageEvent, sentence: str, offset: int, context: Sequence[PriorFact],
            contrast_only: bool = False) -> Iterable[dict[str, Any]]:
    """A correction the vocabulary's patterns do not read, anchored in what the store holds:

    * "I meant 6110, not 6100", "Globex, not Initech", "不是6100，是6110": a held value named
      after "not / 不是" is replaced by the one value of the same kind (a number of as many
      digits; a capitalised name) the sentence gives besides it;
    * "打错字了，是8600", "typo: 8443": a correction with no pattern match and one number replaces
      the speaker's latest number-valued fact with as many digits.

    The replaced fact keeps its topic, environment and dates; nothing is drawn when the kind of
    value, or the held fact, is ambiguous."""
    zh = list(swapped_zh(m, sentence, offset, context)) if re.search(r"[\u4e00-\u9fff]", sentence) else []
    if zh:  # a held Chinese name, corrected (zh_corrections)
        yield from zh
        return
    mine = sorted((p for p in context if p.subject in (m.speaker, m.about)), key=lambda p: -p.seq)
    numbers = [(x.group(), x.start()) for x in re.finditer(r"(?<![A-Za-z0-9_.:/-])\d{2,6}(?![A-Za-z0-9_.:/%-])",
                                                            sentence)]
    names = [(x.group(), x.start()) for x in re.finditer(r"(?<![\w'])(?!I\b)[A-Z][\w&.-]*(?:\s+(?!I\b)[A-Z][\w&.-]*)*",
                                                          sentence)]
    low = sentence.lower()
    target: PriorFact | None = None
    new: str | None = None
    for p in mine:
        at = low.find(p.value.lower())
        rejection = REJECTED_BEFORE.search(sentence[:at]) if at >= 0 else None
        if rejection is None:
            continue
        if p.value.isdigit():
            others = [v for v, pos in numbers if v != p.value and len(v) == len(p.value)]
        else:  # a name only right beside the rejected one: "Globex, not Initech", "not Initech but Globex"
            end = at + len(p.value)
            cue = rejection.start()
            others = [v for v, pos in names if v.lower() not in _NOT_VALUES and (
                (pos + len(v) <= cue and re.fullmatch(r",?\s*(?:and\s+)?", sentence[pos + len(v):cue]))
                or (pos >= end and re.fullmatch(r",?\s*(?:but\s+|it's\s+|it is\s+)?", sentence[end:pos])))]
            if p.value.islower():  # "sorry, pecans, not walnuts": a lower-case held value, a lower-case new one
                others = [t for t in thing_beside(sentence, cue, end) if t != p.value.lower()]
            cleft = cleft_value(sentence, cue)  # "It's amoxicillin I react to, not penicillin"
            if not others and cleft is not None and cleft.lower() != p.value.lower() and (
                    cleft.islower() == p.value.islower()):
                others = [cleft]
        if len(others) == 1:
            target, new = p, others[0]
        break
    if target is None:  # "Jagtvej 27 not 72" while "Jagtvej 72" is held: its number corrected
        renamed = [(p, v) for p in mine if not p.value.isdigit() for v in (renumbered(sentence, p.value),) if v]
        if len(renamed) == 1:
            target, new = renamed[0]
    if target is None and len(numbers) == 1 and not contrast_only:
        held = [p for p in mine if p.value.isdigit() and len(p.value) == len(numbers[0][0])]
        if held and held[0].value != numbers[0][0]:
            target, new = held[0], numbers[0][0]
    if target is None or new is None:
        return
    a = max(sentence.find(new), 0)
    yield from target.replaced_by(new, m.id, f"[{offset + a}:{offset + a + len(new)}] {sentence.strip()}")
