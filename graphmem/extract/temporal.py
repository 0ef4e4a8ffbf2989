"""Which dates and temporary words belong to which value of a sentence, and the end a temporary
phrase implies. :mod:`.statements` reads these; :mod:`.dates` finds the dates themselves."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from .base import CLAUSE_BREAK, TEMPORARY, Found
from .dates import DateSpan, midnight

__all__ = ["clauses", "dates_of", "implied_end", "temporary_here"]


def implied_end(text: str, ref: datetime) -> datetime | None:
    """The exclusive end a temporary phrase implies ("this week only" → next Monday), else None."""
    low = text.lower()
    today = midnight(ref)
    if re.search(r"this weekend|这周末|这个周末|本周末", low) or re.search(
            r"this week|all week|the whole week|这周|本周|这个星期|这礼拜", low):
        return today + timedelta(days=7 - today.weekday())
    if re.search(r"\b(?:today|tonight)\b|今天|今晚|今日", low):
        return today + timedelta(days=1)
    if re.search(r"这两天|couple of days|next two days|两天", low):
        return today + timedelta(days=2)
    if re.search(r"这几天|next few days|few days", low):
        return today + timedelta(days=3)
    days = re.search(r"(?:跑|用|先用|试|持续|为期)([两三四五六七])天", low)  # "先改成18080跑三天"
    if days:
        return today + timedelta(days="两三四五六七".index(days.group(1)) + 2)
    if re.search(r"this month|这个月|本月", low):
        return datetime(today.year + (today.month == 12), today.month % 12 + 1, 1, tzinfo=timezone.utc)
    return None


def clauses(sentence: str) -> list[tuple[int, int]]:
    bounds = [0] + [x.end() for x in CLAUSE_BREAK.finditer(sentence)] + [len(sentence) + 1]
    return list(zip(bounds, bounds[1:]))

def dates_of(sentence: str, dates: list[DateSpan], found: list[Found], f: Found) -> list[DateSpan]:
    """The dates that belong to one of several values of a sentence: those of its own clause;
    else those of a clause that states no value ("from the 2nd to the 5th, staying at Hotel X"),
    or whose values are of the same plan or topic ("Heading to Chicago from the 3rd to the 9th,
    staying at the Drake"). "I live in Denver, but until Friday I'm in Boston" does not bound
    Denver."""
    parts = clauses(sentence)

    def clause(pos: int) -> int:
        return next((k for k, (a, b) in enumerate(parts) if a <= pos < b), len(parts) - 1)

    mine = clause(f.span[0])
    own = [d for d in dates if clause(d.span[0]) == mine]
    if own:
        return own
    if re.search(r"目前|现在|如今|眼下", sentence[parts[mine][0]:parts[mine][1]]):
        return []  # "上周五离开联想，目前在小米": the value's own clause says now
    keep = []
    for d in dates:
        there = [g for g in found if clause(g.span[0]) == clause(d.span[0])]
        if all(g.topic.name == f.topic.name or (g.topic.plan and g.topic.plan == f.topic.plan) for g in there):
            keep.append(d)
    return keep


def temporary_here(sentence: str, lang: str, f: Found, found: list[Found]) -> bool:
    """Does a temporary word ("for now", 暂时, 临时) bound this value? When it stands in the value's
    clause, or in a clause that is little more than the word ("For now, …", "暂时，…") and names
    no other value — not "我常住青禾路，这周临时住海星酒店" for the street."""
    parts = clauses(sentence)
    for t in TEMPORARY.finditer(sentence):
        a, b = next(((a, b) for a, b in parts if a <= t.start() < b), parts[-1])
        if a <= f.span[0] < b:
            return True
        if any(a <= g.span[0] < b for g in found):
            continue
        rest = (sentence[a:t.start()] + sentence[t.end():b]).strip(" ,;，；。.!！")
        # Chinese: only particles around it ("暂时，…", "暂时先，…"); "暂时住朋友家" is a clause of its own
        if (not re.sub(r"[先就都还也吧了啊呢呀嘛哈]", "", rest)) if lang == "zh" else (len(rest.split()) <= 3):
            return True
    return False
