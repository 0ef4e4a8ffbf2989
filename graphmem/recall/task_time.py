"""The time range a task names, for recall: "in May 2023", "last week", "in June", "the second week
of November", "between August 11 and August 15 2023", "the week before 16 November", "during the
summer", 去年, 六月.

A question is not a message. A message's "June 3" without a year is usually ahead of it (a plan:
:mod:`graphmem.extract.dates` reads it so); a question in the past tense ("When did Tim go to the
UK in November?") asks about the latest such day or month *at or before* the time it is asked
about. So a year-less date or month in a past-tense task is the latest one not after ``ref``;
elsewhere it is the next one, as in a message. Every range is ``[start, end)`` in UTC, at day
precision; the first rule that matches wins, the most specific first.

Chinese has no tense: a year-less month in a Chinese question reads as past when the question says
so (以前, 去年, 了, 的时候, 那时…), as an English one does with "did" or "was".

:func:`question_time` turns the range into the one instant a question asks about (issue #44):
"Where did Maya work in March 2026?" asks what held at the end of March; "on February 20" about
that day; "two weeks ago" about the day two weeks back; "this year" about now; a future day about
its start.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Callable, NamedTuple, Optional

from ..extract.dates import MONTH_RE, MONTHS, find_dates, next_year_for

__all__ = ["QuestionTime", "past_tense", "question_time", "task_range"]

Range = tuple[datetime, datetime]

# A task about the past: a past-tense auxiliary or "when did/was", "ago", "last …".
_PAST_TENSE = re.compile(r"\b(?:did|was|were|had|went|ago|last|previous(?:ly)?|used to|back in|back then)\b"
                         r"|以前|之前|去年|前年|上个?月|了|的时候|那时|当时|曾经|原来|过去", re.IGNORECASE)
_ZH_NUM = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10, "十一": 11,
           "十二": 12}
_YEAR_WORD = r"(?:,?\s+(?:of\s+)?(?P<year>(?:19|20)\d\d))?"

_RELATIVE = re.compile(r"\b(last|this|past) (year|month|week)\b|(前年|去年|今年|上个月|这个月|上周|本周)", re.I)
_ZH_COUNT = r"\d{1,3}|[一二两三四五六七八九十]{1,3}|半"
# "two weeks ago", "a year ago", "3 days ago", 两周前, 三个月前, 两年以前, 五天前 — counted back from the
# time asked about; "a few months ago" names no count and no time
_AGO = re.compile(r"\b(?P<n>\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                  r"a couple of)\s+(?P<unit>day|week|month|year)s?\s+ago\b"
                  rf"|(?P<zn>{_ZH_COUNT})\s*(?P<zunit>天|日|周|个?星期|个?礼拜|个月|年)(?:以)?前", re.I)
_COUNT = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2}
_UNIT = {"天": "day", "日": "day", "周": "week", "星期": "week", "个星期": "week", "礼拜": "week", "个礼拜": "week",
         "个月": "month", "年": "year"}
# "March last year", "last March"? no: "March of last year", 去年三月, 今年3月份, 前年十二月
_MONTH_OF_YEAR = re.compile(rf"\b{MONTH_RE}\s+(?:of\s+)?(?P<rel>last|this)\s+year\b"
                            r"|(?P<zrel>前年|去年|今年)\s*(?P<num>\d{1,2}|十[一二]?|[一二三四五六七八九])月", re.I)
_BETWEEN = re.compile(r"\bbetween\s+(?P<a>.{3,30}?)\s+and\s+(?P<b>.{3,30}?)(?=[?.!,;]|$)", re.I)
_WEEK_AROUND = re.compile(r"\b(?:the\s+)?week\s+(?P<rel>before|after|of|leading up to)\s+(?P<date>.{3,30}?)"
                          r"(?=[?.!,;]|$)", re.I)
_NTH_WEEK = re.compile(rf"\b(?:the\s+)?(?P<nth>first|1st|second|2nd|third|3rd|fourth|4th|last|final)\s+week\s+of\s+"
                       rf"{MONTH_RE}{_YEAR_WORD}\b", re.I)
_PART = re.compile(rf"\b(?:(?:the\s+)?(?P<part1>beginning|start|middle|end)\s+of|(?P<part2>early|mid|late)[\s-]+)\s*"
                   rf"{MONTH_RE}{_YEAR_WORD}\b", re.I)
_MONTH = re.compile(rf"\b(?:in|during|of|since|month of|back in)\s+{MONTH_RE}{_YEAR_WORD}\b", re.I)
_ZH_MONTH = re.compile(r"(?<![\d年])(?P<num>\d{1,2}|十[一二]?|[一二三四五六七八九])月份?(?![\d日号])")
# "during the summer", "in summer 2022", "last winter" — not "summer camp" or "a spring in the garden"
_SEASON = re.compile(r"\b(?:(?:in|during|over|through)\s+(?:the\s+)?(?:(?P<which1>last|this|past)\s+)?|"
                     r"(?P<which2>last|this|past)\s+)(?P<season>summer|winter|spring|fall|autumn)"
                     r"(?:\s+of)?(?:\s+(?P<year>(?:19|20)\d\d))?(?!\s+(?:camp|break|school|job|class|vacation|"
                     r"holiday|festival|league|program|roll|rolls|collection|sale|season))\b", re.I)
_ZH_SEASON = re.compile(r"(?P<which>去年|今年)?(?P<season>夏天|冬天|春天|秋天)")
_YEAR = re.compile(r"(?<![\d/.-])((?:19|20)\d\d)(?![\d/.-])")
_WRITTEN_YEAR = re.compile(r"(?:19|20)\d\d")  # a phrase that gives its year
_SEASON_START = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12,
                 "春天": 3, "夏天": 6, "秋天": 9, "冬天": 12}


def task_range(task: str, ref: datetime) -> Optional[Range]:
    """The first time range the task names, relative to ``ref`` (the time it asks about): see the
    module docstring. None when it names none."""
    past = _PAST_TENSE.search(task) is not None
    for rule in _RULES:
        found = rule(task, ref, past)
        if found is not None:
            return found
    return None


def past_tense(task: str) -> bool:
    """Is the task worded in the past ("did", "was", "ago", "last …", 以前, 去年, 了, 的时候…)?"""
    return _PAST_TENSE.search(task) is not None


def _utc(y: int, m: int, d: int = 1) -> datetime:
    return datetime(y, m, d, tzinfo=timezone.utc)


def _month_start(y: int, m: int) -> datetime:
    return _utc(y + (m - 1) // 12, (m - 1) % 12 + 1)


def _pick_year(month: int, year: Optional[str], ref: datetime, past: bool) -> int:
    """The year of a month written without one: the latest not after ``ref`` for a past-tense task,
    else the next not before it, as a message's plan reads it (this month counts either way)."""
    if year:
        return int(year)
    if past:
        return ref.year if month <= ref.month else ref.year - 1
    return next_year_for(month, ref)


def _whole_month(start: datetime) -> Range:
    return start, _month_start(start.year, start.month + 1)


def _named_month(m: re.Match[str], ref: datetime, past: bool) -> Range:
    """The month a match's ``mon`` (and optional ``year``) group names, read as :func:`_pick_year`."""
    month = MONTHS[m.group("mon")[:3].lower()]
    return _whole_month(_month_start(_pick_year(month, m.group("year"), ref, past), month))


def _relative(task: str, ref: datetime, past: bool) -> Optional[Range]:
    rel = _RELATIVE.search(task)
    if rel is None:
        return None
    which, unit, zh = rel.group(1), rel.group(2), rel.group(3)
    if zh:
        which, unit = {"前年": ("before last", "year"), "去年": ("last", "year"), "今年": ("this", "year"),
                       "上个月": ("last", "month"), "这个月": ("this", "month"), "上周": ("last", "week"),
                       "本周": ("this", "week")}[zh]
    back = {"this": 0, "before last": 2}.get(which.lower(), 1)
    if unit.lower() == "year":
        return _utc(ref.year - back, 1), _utc(ref.year - back + 1, 1)
    if unit.lower() == "month":
        return _whole_month(_month_start(ref.year, ref.month - back))
    monday = _utc(ref.year, ref.month, ref.day) - timedelta(days=ref.weekday() + 7 * back)
    return monday, monday + timedelta(days=7)


def _day(text: str, ref: datetime, past: bool) -> Optional[datetime]:
    """The one day a short phrase names ("August 15 2023", "16 November"), year-less days read as
    :func:`_pick_year` reads months."""
    found = [d for d in find_dates(text, ref) if d.end is None and not d.month_only]
    if not found:
        return None
    d = found[0]
    if past and _WRITTEN_YEAR.search(text[d.span[0]:d.span[1]]) is None:
        year = _pick_year(d.start.month, None, ref, past)
        if d.start.month == ref.month and d.start.day > ref.day:
            year -= 1
        try:
            return d.start.replace(year=year)
        except ValueError:  # Feb 29 in a year without one
            return None
    return d.start


def _match_day(pattern: re.Pattern[str], group: str, task: str, ref: datetime,
               past: bool) -> Optional[tuple[re.Match[str], datetime]]:
    """``pattern``'s match in the task and the day its ``group`` names, if both are found."""
    m = pattern.search(task)
    day = _day(m.group(group), ref, past) if m is not None else None
    return (m, day) if m is not None and day is not None else None


def _between(task: str, ref: datetime, past: bool) -> Optional[Range]:
    found = _match_day(_BETWEEN, "b", task, ref, past)
    if found is None:
        return None
    m, b = found
    year = _WRITTEN_YEAR.search(m.group("b"))
    a_text = m.group("a") if _WRITTEN_YEAR.search(m.group("a")) or not year else f"{m.group('a')} {year.group()}"
    a = _day(a_text, ref, past)
    if a is None or a > b:
        return None
    return a, b + timedelta(days=1)


def _week_around(task: str, ref: datetime, past: bool) -> Optional[Range]:
    found = _match_day(_WEEK_AROUND, "date", task, ref, past)
    if found is None:
        return None
    m, day = found
    rel = m.group("rel").lower()
    if rel in ("before", "leading up to"):
        return day - timedelta(days=7), day
    if rel == "after":
        return day + timedelta(days=1), day + timedelta(days=8)
    monday = day - timedelta(days=day.weekday())
    return monday, monday + timedelta(days=7)


def _nth_week(task: str, ref: datetime, past: bool) -> Optional[Range]:
    m = _NTH_WEEK.search(task)
    if m is None:
        return None
    start, end = _named_month(m, ref, past)
    nth = m.group("nth").lower()[:3]
    if nth in ("las", "fin"):
        return end - timedelta(days=7), end
    k = {"fir": 0, "1st": 0, "sec": 1, "2nd": 1, "thi": 2, "3rd": 2, "fou": 3, "4th": 3}[nth]
    return start + timedelta(days=7 * k), start + timedelta(days=7 * k + 7)


def _part_of_month(task: str, ref: datetime, past: bool) -> Optional[Range]:
    m = _PART.search(task)
    if m is None:
        return None
    start, end = _named_month(m, ref, past)
    part = (m.group("part1") or m.group("part2")).lower()
    if part in ("beginning", "start", "early"):
        return start, start + timedelta(days=10)
    if part in ("middle", "mid"):
        return start + timedelta(days=10), start + timedelta(days=20)
    return start + timedelta(days=20), end


def _dates(task: str, ref: datetime, past: bool) -> Optional[Range]:
    found = find_dates(task, ref)
    if not found:
        return None
    d = found[0]
    if d.end is not None:
        return d.start, d.end
    if d.month_only:
        return _whole_month(d.start)
    day = _day(task[d.span[0]:d.span[1]], ref, past) or d.start
    return day, day + timedelta(days=1)


def _month(task: str, ref: datetime, past: bool) -> Optional[Range]:
    m = _MONTH.search(task)
    if m is not None:
        return _named_month(m, ref, past)
    zh = _ZH_MONTH.search(task)
    if zh is None:
        return None
    num = zh.group("num")
    month = int(num) if num.isdigit() else _ZH_NUM.get(num, 0)
    if not 1 <= month <= 12:
        return None
    return _whole_month(_month_start(_pick_year(month, None, ref, past), month))


def _season(task: str, ref: datetime, past: bool) -> Optional[Range]:
    m = _SEASON.search(task)
    zh = None if m else _ZH_SEASON.search(task)
    if m is None and zh is None:
        return None
    if m is not None:
        season, year = m.group("season").lower(), m.group("year")
        which = (m.group("which1") or m.group("which2") or "").lower()
    else:
        assert zh is not None  # 去年 / 今年 name the calendar year: 去年夏天 is last year's summer
        season, which = zh.group("season"), ""
        year = {"去年": str(ref.year - 1), "今年": str(ref.year)}.get(zh.group("which") or "")
    first = _SEASON_START[season]
    if year:
        start = _utc(int(year), first)
    else:
        start = _utc(ref.year, first)
        while start > ref:  # the latest that has begun ...
            start = start.replace(year=start.year - 1)
        if which == "last" and ref < _month_start(start.year, first + 3):  # ... or, "last", the latest over
            start = start.replace(year=start.year - 1)
    return start, _month_start(start.year, first + 3)


def _zh_count(text: str) -> Optional[int]:
    """A small Chinese or Arabic count: 3, 三, 两, 十二; 半 (half) and anything else is None."""
    if text.isdigit():
        return int(text)
    digits = {**_ZH_NUM, "两": 2}
    if text in digits:
        return digits[text]
    if len(text) == 2 and text[0] == "十" and text[1] in digits:
        return 10 + digits[text[1]]
    if len(text) in (2, 3) and text[0] in digits and text[1] == "十":
        return digits[text[0]] * 10 + (digits[text[2]] if len(text) == 3 and text[2] in digits else 0)
    return None


def _back(ref: datetime, n: int, unit: str) -> Optional[datetime]:
    """The day ``n`` units before ``ref`` (a month back from Mar 31 is the last day of February)."""
    d = _utc(ref.year, ref.month, ref.day)
    if unit in ("day", "week"):
        return d - timedelta(days=n * (7 if unit == "week" else 1))
    months = n * (12 if unit == "year" else 1)
    y, m = divmod(ref.year * 12 + ref.month - 1 - months, 12)
    if y < 1:
        return None
    first = _utc(y, m + 1)
    last = (_month_start(y, m + 2) - timedelta(days=1)).day
    return first.replace(day=min(ref.day, last))


_AGO_HALF_WIDTH = {"day": 0, "week": 3, "month": 15, "year": 182}


def ago_day(task: str, ref: datetime) -> Optional[tuple[datetime, Range]]:
    """"two weeks ago", 三个月前: the day that many units before ``ref``, and a range around it
    as wide as the unit (a count of months is not exact to the day)."""
    m = _AGO.search(task)
    if m is None:
        return None
    if m.group("n"):
        raw = m.group("n").lower()
        n: Optional[int] = int(raw) if raw.isdigit() else _COUNT.get(raw)
        unit = m.group("unit").lower()
    else:
        n, unit = _zh_count(m.group("zn")), _UNIT[m.group("zunit")]
    if not n:
        return None
    day = _back(ref, n, unit)
    if day is None:
        return None
    half = timedelta(days=_AGO_HALF_WIDTH[unit])
    return day, (day - half, day + half + timedelta(days=1))


def _ago(task: str, ref: datetime, past: bool) -> Optional[Range]:
    found = ago_day(task, ref)
    return found[1] if found is not None else None


def _month_of_year(task: str, ref: datetime, past: bool) -> Optional[Range]:
    m = _MONTH_OF_YEAR.search(task)
    if m is None:
        return None
    if m.group("mon"):
        month, back = MONTHS[m.group("mon")[:3].lower()], 1 if m.group("rel").lower() == "last" else 0
    else:
        num = m.group("num")
        month = int(num) if num.isdigit() else _ZH_NUM.get(num, 0)
        back = {"前年": 2, "去年": 1, "今年": 0}[m.group("zrel")]
    if not 1 <= month <= 12:
        return None
    return _whole_month(_month_start(ref.year - back, month))


def _year(task: str, ref: datetime, past: bool) -> Optional[Range]:
    year = _YEAR.search(task)
    if year is None:
        return None
    y = int(year.group(1))
    return _utc(y, 1), _utc(y + 1, 1)


_RULES: tuple[Callable[[str, datetime, bool], Optional[Range]], ...] = (
    _between, _week_around, _nth_week, _part_of_month, _season, _month_of_year, _ago, _relative, _dates, _month,
    _year)


class QuestionTime(NamedTuple):
    """The instant a question asks about (``at``), the range it names, and whether it is about the past."""

    at: datetime
    start: datetime
    end: datetime
    past: bool


_LAST_INSTANT = timedelta(microseconds=1)


def question_time(task: str, ref: datetime) -> Optional[QuestionTime]:
    """The time a question asks about, read from its words relative to ``ref`` (now, or the view's
    valid time); None when it names none, and then the caller's time stands.

    * a range wholly before ``ref`` — "in March 2026", "in 2024", "last year", 去年, 上个月 — asks what
      held at its end (the last instant of it: what she did *in* 2024 is what 2024 ended with; what
      changed inside the range is history, shown as such);
    * one day — "on February 20, 2026", "yesterday", "two weeks ago" — asks about that day (its
      start: docs/format.md reads a date alone as midnight UTC);
    * a range holding ``ref`` — "this year", 这个月 — asks about ``ref`` itself;
    * a range wholly after ``ref`` — "on Oct 5" in a plan — asks about its start."""
    ago = ago_day(task, ref)
    found = ago[1] if ago is not None else task_range(task, ref)
    if found is None:
        return None
    start, end = found
    if ago is not None:
        at = ago[0]
    elif end - start <= timedelta(days=1):
        at = start
    elif end <= ref:
        at = end - _LAST_INSTANT
    elif start <= ref:
        at = ref
    else:
        at = start
    return QuestionTime(at=at, start=start, end=end, past=at < ref)
