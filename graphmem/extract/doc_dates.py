"""The date a cited document carries ("the 2024 lease", "an email from last March", "去年的截图").

Kept apart from :mod:`.dates` (the dates of the speaker's own statements): a document's date is read
from the words that introduce it, and only a date before the message counts.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from .dates import MONTHS, find_dates, midnight

__all__ = ["document_date"]

_DOC_YEAR = re.compile(r"(?<![\d-])(?P<year>(?:19|20)\d\d)(?:\s*年)?(?![\d-])")
_DOC_REL = re.compile(r"(?P<w>去年|前年|上个?月|上周|last year|last month|last week|a year ago|years? ago|"
                      r"last\s+(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
                      r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?))", re.IGNORECASE)


def document_date(text: str, ref: datetime) -> datetime | None:
    """The date a cited document carries, from the words that introduce it ("the 2024 lease",
    "an email from last March", "去年的截图", "2025年3月的合同"); None when it names none."""
    dates = [d for d in find_dates(text, ref) if d.start < midnight(ref)]
    if dates:
        return dates[-1].start
    today = midnight(ref)
    m = _DOC_REL.search(text)
    if m:
        w = m.group("w").lower()
        if m.group("mon"):
            month = MONTHS[m.group("mon")[:3].lower()]
            year = ref.year if month < ref.month else ref.year - 1
            return datetime(year, month, 1, tzinfo=timezone.utc)
        if w in ("去年", "last year", "a year ago"):
            return datetime(ref.year - 1, 1, 1, tzinfo=timezone.utc)
        if w == "前年" or "years ago" in w:
            return datetime(ref.year - 2, 1, 1, tzinfo=timezone.utc)
        if w in ("上个月", "上月", "last month"):
            return datetime(ref.year - (ref.month == 1), (ref.month - 2) % 12 + 1, 1, tzinfo=timezone.utc)
        if w in ("上周", "last week"):
            return today - timedelta(days=today.weekday() + 7)
    m = _DOC_YEAR.search(text)
    if m and int(m.group("year")) < ref.year:
        return datetime(int(m.group("year")), 1, 1, tzinfo=timezone.utc)
    return None
