"""Which of a Chinese sentence's values is the one it states, where it names two of one topic.

"已经从内网迁到公网了", "从腾讯跳到了大疆": the value after 从 is where the change started, the
one after 到/成 is the new one. Like "not X" (base.REJECTED_BEFORE, which cannot take 从: "从9月1日起"
starts a date), the old value is dropped only when the sentence states another value of the same
topic after it — "从腾讯离职了" keeps its one value (an ending).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from .base import Found

__all__ = ["drop_moved_from"]

_FROM = re.compile(r"从\s*$")
_TO = re.compile(r"^\s*(?:那边|这边|那里)?(?:迁|搬|换|切|改|跳|调|转|挪|升级)[\u4e00-\u9fff]{0,2}?(?:到|去|成|为)")


def drop_moved_from(sentence: str, found: Sequence[Found]) -> list[Found]:
    """``found`` without the start of a change ("从X迁到Y": X) when Y is found for the same topic."""
    out = []
    for f in found:
        start = _FROM.search(sentence[:f.span[0]]) and _TO.search(sentence[f.span[1]:])
        if start and any(g.topic.name == f.topic.name and g.span[0] > f.span[1] for g in found):
            continue
        out.append(f)
    return out
