"""Which of a Chinese sentence's values is the one it states, where it names two of one topic.

"已经从内网迁到公网了", "从腾讯跳到了大疆": the value after 从 is where the change started, the
one after 到/成 is the new one. Like "not X" (base.REJECTED_BEFORE, which cannot take 从: "从9月1日起"
starts a date), the old value is dropped only when the sentence states another value of the same
topic after it — "从腾讯离职了" keeps its one value (an ending).

A day is no place or employer ("出差到周三"); a known city followed by a district is that city
("住在杭州滨江" → 杭州); "一家…" is no name. A kind of employer is no employer's name ("在外企做HR，公司是欧莱雅": 欧莱雅, not 外企): such a
value is dropped before the one-value-per-topic choice, so a name later in the sentence is kept.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from .gates import ZH_PLACES
from .zh_places import is_city_zh

if TYPE_CHECKING:
    from .base import Found

__all__ = ["drop_moved_from"]

_NOT_A_NAME = re.compile(r"一家|一个|的一")
_DAYS = re.compile(r"周[一二三四五六日天末]|星期|礼拜|\d+[号日月]|[今明后昨]天|月底|月初|年底|下周|上周|这周|本周")

_KIND_OF_EMPLOYER = re.compile(r"^(?:外企|国企|央企|私企|民企|大厂|小厂|外资|合资|事业单位|体制内|公司|单位|"
                               r"(?:一家|小|大|创业|互联网|科技|新)?公司|甲方|乙方|总部|分公司|老东家|新东家)$")

_FROM = re.compile(r"从\s*$")
_TO = re.compile(r"^\s*(?:那边|这边|那里)?(?:迁|搬|换|切|改|跳|调|转|挪|升级)[\u4e00-\u9fff]{0,2}?(?:到|去|成|为)")


def drop_moved_from(sentence: str, found: Sequence[Found]) -> list[Found]:
    """``found`` without the start of a change ("从X迁到Y": X) when Y is found for the same topic."""
    out = []
    for f in found:
        if f.topic.name == "employer" and _KIND_OF_EMPLOYER.match(f.value):
            continue
        if f.topic.name in ("home_city", "trip_city", "employer") and _DAYS.search(f.value):
            continue  # "出差到周三": a day, not a place
        if f.topic.name == "employer" and _NOT_A_NAME.search(f.value):
            continue  # "在北京的一家外企": a description, no name
        if f.topic.name in ("home_city", "trip_city"):
            f = _city_first(f)
        start = _FROM.search(sentence[:f.span[0]]) and _TO.search(sentence[f.span[1]:])
        if start and any(g.topic.name == f.topic.name and g.span[0] > f.span[1] for g in found):
            continue
        out.append(f)
    return out


def _city_first(f: "Found") -> "Found":
    """"住在杭州滨江", "搬到上海浦东": a known city followed by a district or a spot is that city."""
    for n in (3, 2, 4):
        head = f.value[:n]
        if len(f.value) > n and (head in ZH_PLACES or is_city_zh(head)):
            return replace(f, value=head, span=(f.span[0], f.span[0] + n))
    return f
