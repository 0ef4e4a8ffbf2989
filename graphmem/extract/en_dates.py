"""English date words the table of :mod:`.dates` does not read: a bare year after "since", chat
spellings of tomorrow, the end of the month. Each rule gives the day meant; :mod:`.dates` gives it
its role from the words around it ("since 2023" starts, "till end of month" ends).

Kept apart from :mod:`.dates` so that English wording grows here, not in the shared table.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Callable

__all__ = ["EN_DATES"]


def _today(ref: datetime) -> datetime:
    return datetime(ref.year, ref.month, ref.day, tzinfo=timezone.utc)


def _since_year(m: re.Match[str], ref: datetime) -> datetime | None:
    """"since 2023", "since like 2018": 1 January of that year — never a year still ahead."""
    year = int(m.group("year"))
    return datetime(year, 1, 1, tzinfo=timezone.utc) if year <= ref.year else None


def _tomorrow(m: re.Match[str], ref: datetime) -> datetime | None:
    """"tmrw", "tmr", "2moro": chat spellings of tomorrow."""
    return _today(ref) + timedelta(days=1)


def _month_end(m: re.Match[str], ref: datetime) -> datetime | None:
    """"till end of month", "until the end of the month": the month's last day (an end date
    includes its day). Only as an end: as a start ("at the end of the month I move") the day is
    vague, so nothing."""
    if not re.search(r"\b(?:until|till|til|through|thru|to)\s*$", m.string[:m.start()], re.I):
        return None
    today = _today(ref)
    first_next = datetime(today.year + (today.month == 12), today.month % 12 + 1, 1, tzinfo=timezone.utc)
    return first_next - timedelta(days=1)


EN_DATES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str], datetime], datetime | None]], ...] = (
    (re.compile(r"\b(?:since|from)\s+(?:like\s+|about\s+|around\s+|circa\s+)?(?P<year>(?:19|20)\d\d)\b(?![-/.:]\d)",
                re.I), _since_year),
    (re.compile(r"\b(?:tmrw|tmr|tmrrw|2moro|2morrow|tomoz)\b", re.I), _tomorrow),
    (re.compile(r"\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?month\b", re.I), _month_end),
)
