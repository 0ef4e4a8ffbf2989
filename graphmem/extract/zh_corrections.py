"""A Chinese correction of a held name: "我住的是回龙观，不是天通苑", "不是理想，是蔚来".

The vocabulary's patterns read a value only in the shapes they know; a correction names the held
value (after 不是 / 而不是 / 并非) and the right one beside it, in any wording. When the speaker (or
the row's ``about``) holds that value, the name beside it — after 是/为/在 before "，不是Y", or after
"不是Y，是" — replaces it: a retract of the held fact and a set of the new value with the held
fact's topic, environment and dates. Numbers are :mod:`.corrections`' (it matches their digits).
"""

from __future__ import annotations

import re
from typing import Any, Iterator, Sequence

from ..core.models import MessageEvent
from .base import PriorFact

__all__ = ["SWAP_CUE_ZH", "swapped_zh"]

SWAP_CUE_ZH = re.compile(r"不是|并非")  # every correction read here names the held value after one of these

_NAME = r"(?![的是在为])[\u4e00-\u9fffA-Za-z][\u4e00-\u9fffA-Za-z0-9（）()·]{1,15}?"


def swapped_zh(m: MessageEvent, sentence: str, offset: int, context: Sequence[PriorFact]) -> Iterator[dict[str, Any]]:
    """The retract and the set of a corrected held name, or nothing."""
    mine = sorted((p for p in context if p.subject in (m.speaker, m.about) and not p.value.isdigit()),
                  key=lambda p: -p.seq)
    for p in mine:
        held = re.escape(p.value)
        before = re.search(rf"(?:是|为|在)(?P<new>{_NAME})[，,\s]*(?:而)?(?:不是|并非)\s*{held}", sentence)
        after = re.search(rf"(?:不是|并非)\s*{held}[，,\s]*(?:而)?是(?P<new>{_NAME})(?=[了啦呀吧哈。，,！!\s]|$)", sentence)
        hit = before or after
        if hit is None or hit.group("new") == p.value:
            continue
        yield from p.replaced_by(hit.group("new"), m.id,
                                 f"[{offset + hit.start('new')}:{offset + hit.end('new')}] {sentence.strip()}")
        return
