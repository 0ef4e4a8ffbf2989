"""A Chinese sentence that ends a value the store holds, named by the value itself.

"我已经不在腾讯了", "我已经不住上海了", "上周从上海搬走了", "腾讯那边我已经离职了": no pattern of
the vocabulary reads these (a bare name after 不在 could be anything: 不在家, 不在办公室), but when
the name is a value the speaker (or the row's ``about``) holds, the sentence withdraws it: a
``revoke`` of that fact's topic (its value, on a many-valued topic), effective from the day the
sentence names, if any. Questions and hypotheticals draw nothing (the statement gates); a sentence
that states a value of its own is left to the statement layer.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Sequence

from ..core.models import MessageEvent
from .base import PriorFact
from .gates import is_question
from .zh_dates import find_dates

__all__ = ["ENDING_CUE_ZH", "ended_zh"]

# Words without which no sentence here ends a value (the extractor's cheap pre-check).
ENDING_CUE_ZH = re.compile(r"离职|辞职|裸辞|搬走|搬出来|退租|走人|不再?(?:在|住|待|呆)")

_HEDGE = re.compile(r"听说|据说|可能|也许|如果|要是|假如|或许|说不定|打算|考虑|大概|估计|好像|似乎|的话")
_NOT_NOW = r"(?:已经|现在|早就|早已|目前|如今)?(?:不再?|没再)(?:在|住在?|待在|呆在)\s*{v}(?:上班|工作|干|住|待|那边|这边)?(?:了|啦)"
_LEFT = r"(?:从\s*{v}(?:那边)?(?:搬走|搬出来|离职|辞职|走人)了|{v}(?:那边|那里)?(?:我)?(?:已经|早就)?(?:离职|辞职|裸辞|搬走|退租)了)"


def ended_zh(m: MessageEvent, sentence: str, context: Sequence[PriorFact], vocabulary_many: set[str]) -> list[dict[str, Any]]:
    """The revokes of held values the sentence says have ended, or []."""
    if is_question(sentence, "zh") or _HEDGE.search(sentence):
        return []
    out: list[dict[str, Any]] = []
    for p in sorted((p for p in context if p.subject in (m.speaker, m.about) and len(p.value) >= 2),
                    key=lambda p: -p.seq):
        v = re.escape(p.value)
        hit = re.search(_NOT_NOW.format(v=v), sentence) or re.search(_LEFT.format(v=v), sentence)
        if hit is None or re.search(r"[你您他她]", sentence[:hit.start()]):
            continue
        event: dict[str, Any] = {"op": "revoke", "subject": p.subject, "topic": p.topic, "authority": "L1",
                                 "source": m.id}
        if p.topic in vocabulary_many:
            event["value"] = p.value
        if p.env:
            event["env"] = p.env
        when = _effective(sentence, m.at)
        if when is not None:
            event["effective"] = when.isoformat()
        out.append(event)
    return out


def _effective(sentence: str, at: datetime) -> datetime | None:
    days = [d.start for d in find_dates(sentence, at) if d.role in ("at", "from") and not d.month_only]
    return days[0] if len(days) == 1 else None
