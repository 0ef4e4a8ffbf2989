"""When an episode happened: the time words of a sentence resolved against the message's day.

A told time becomes a half-open day range: a named day is that day, a vague one ("last week",
"a few days ago", "last summer") the stretch it can mean, so a question about a date inside it
still finds the episode. Plans look ahead (:func:`ahead_of`); Chinese time words have their own
table (:func:`zh_when`). Pure functions of (sentence, message time), cached: the episode rules
and the story's time (:func:`.episodes.narrative_time`) ask for the same sentence.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from functools import lru_cache

from .dates import find_dates, midnight

_VAGUE = re.compile(r"\b(?P<w>last (?:week|weekend|month|year|night|summer|winter|spring|fall|autumn)|this (?:morning|"
                    r"afternoon|weekend)|the other day|a (?:few|couple of) (?:days|weeks) ago|(?:\d+|a|two|three) "
                    r"(?:days?|weeks?|months?|years?) ago)\b", re.I)
ZH_TIME = re.compile(r"昨天|前天|上周[一二三四五六日天]?|上个?星期[一二三四五六日天]?|上个?月|去年|前年|上周末|周末|那天|刚才|今天早上|今早")

_AGO = re.compile(r"\b(?:about |around |almost |nearly |over )?(?P<n>\d+|a|an|one|two|three|four|five|six|a few|a couple of) "
                  r"(?P<unit>day|weekend|week|month|year)s? ago\b", re.I)
_N = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "a few": 3, "a couple of": 2}
_UNIT = {"day": 1, "week": 7, "month": 30, "year": 365}


_SEASON = re.compile(r"\blast (?P<s>summer|winter|spring|fall|autumn)\b", re.I)
_SEASONS = {"spring": (3, 6), "summer": (6, 9), "fall": (9, 12), "autumn": (9, 12), "winter": (12, 15)}
IDIOM = re.compile(r"\blike (?:just )?(?:yesterday|last week)\b", re.I)


_LAST_WD = re.compile(r"\blast (?P<wd>mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday|s|r|rs)?\b\.?", re.I)
_WD = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
_ON_ORD = re.compile(r"\bon the (?P<d>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b", re.I)


def _latest_day_of_month(day: int, today: datetime) -> tuple[datetime, datetime] | None:
    """The latest date with this day of the month, up to ``today`` (this month's or last month's)."""
    for months_back in (0, 1, 2):
        y, m = today.year, today.month - months_back
        while m < 1:
            y, m = y - 1, m + 12
        try:
            d = today.replace(year=y, month=m, day=day)
        except ValueError:
            continue  # no 31st this month
        if d <= today:
            return d, d + timedelta(days=1)
    return None


_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december"]
# "last June", "in March", "back in April", "this month": a month named without a day (a day after it
# is a date, read by find_dates).
_MONTH = re.compile(r"\b(?P<w>(?i:last|in|back in|this past|earlier this|this)) (?P<m>January|February|March|April|May|June|July|"
                    r"August|September|October|November|December|month)\b(?!,? \d)")


def _month(sentence: str, today: datetime) -> tuple[datetime, datetime] | None:
    """The month ``_MONTH`` names, the latest one up to the message ("in March": this year's when
    March has begun, else nothing — a plan, or a year back, the text does not say; "last June":
    the latest June before this month); "this month": from its first day to the message's."""
    m = _MONTH.search(sentence)
    if m is None:
        return None
    first = today.replace(day=1)
    w = m.group("w").lower()
    if m.group("m") == "month":
        return (first, today + timedelta(days=1)) if w in ("earlier this", "this") else None
    if w in ("earlier this", "this"):
        return None
    n = _MONTHS.index(m.group("m").lower()) + 1
    year = today.year
    if n > today.month or (n == today.month and w in ("last", "this past")):
        if w in ("in", "back in"):
            return None
        year -= 1
    start = datetime(year, n, 1, tzinfo=today.tzinfo)
    end = min(datetime(year + (n == 12), n % 12 + 1, 1, tzinfo=today.tzinfo), today + timedelta(days=1))
    return start, end


def month_ahead(sentence: str, at: datetime) -> bool:
    """"I'm running a marathon in September" (told in May): a month named that has not begun."""
    m = _MONTH.search(sentence)
    today = midnight(at)
    return m is not None and m.group("m") != "month" and m.group("w").lower() == "in" \
        and _MONTHS.index(m.group("m").lower()) + 1 > today.month


_ON_WD = re.compile(r"\b[Oo]n (?P<wd>Mon|Tue|Wed|Thu|Fri|Sat|Sun)(?:day|sday|nesday|rsday|urday)\b")


@lru_cache(maxsize=2048)  # pure; asked for the same sentence by the episode rules and the story's time
def time_span(sentence: str, at: datetime) -> tuple[int, int] | None:
    """Where the time expression when_told used sits in the sentence."""
    for rx in (_AGO, _SEASON, _LAST_WD, _ON_WD, _VAGUE):
        m = rx.search(sentence)
        if m:
            return m.span()
    month = _MONTH.search(sentence)
    if month and _month(sentence, midnight(at)) is not None:
        return month.span()
    dates = [d for d in find_dates(sentence, at) if d.start < midnight(at) + timedelta(days=1)]
    return dates[0].span if dates else None


@lru_cache(maxsize=2048)
def when_told(sentence: str, at: datetime) -> tuple[datetime, datetime] | None:
    today = midnight(at)
    if IDIOM.search(sentence):
        return None  # "feels like just yesterday"
    season = _SEASON.search(sentence)
    if season:
        a, b = _SEASONS[season.group("s").lower()]
        year = today.year if today.month >= b else today.year - 1
        if a == 12 and today.month < 3:
            year -= 1
        start = datetime(year, a, 1, tzinfo=today.tzinfo)
        end = datetime(year + (b > 12), (b - 1) % 12 + 1, 1, tzinfo=today.tzinfo)
        return start, end
    last = _LAST_WD.search(sentence)
    if last:  # "last Friday": the latest Friday before the message's day
        back = (today.weekday() - _WD.index(last.group("wd").lower())) % 7 or 7
        return today - timedelta(days=back), today - timedelta(days=back - 1)
    ago = _AGO.search(sentence)
    if ago:  # "about a year ago": that long before the message, give or take half a unit
        n = int(ago.group("n")) if ago.group("n").isdigit() else _N[ago.group("n").lower()]
        if ago.group("unit").lower() == "weekend":  # "two weekends ago": that Saturday and Sunday
            saturday = today - timedelta(days=today.weekday()) - timedelta(days=2 + 7 * (n - 1))
            return saturday, saturday + timedelta(days=2)
        unit = _UNIT[ago.group("unit").lower()]
        if ago.group("n").lower() in ("a few", "a couple of"):  # two to four, one to three units back
            lo, hi = (2, 4) if ago.group("n").lower() == "a few" else (1, 3)
            return today - timedelta(days=hi * unit), min(today - timedelta(days=lo * unit - 1), today + timedelta(days=1))
        center = today - timedelta(days=n * unit)
        half = timedelta(days=max(1, unit // 2))
        return center - half, min(center + half + timedelta(days=1), today + timedelta(days=1))
    vague = _VAGUE.search(sentence)
    if vague and vague.group("w").lower() in ("last week", "last weekend", "last month", "last year", "last night"):
        return _vague(vague.group("w").lower(), today)
    month = _month(sentence, today)
    if month is not None:
        return month
    for d in find_dates(sentence, at):
        if d.start < today + timedelta(days=1):
            end = d.end or ((d.start + timedelta(days=32)).replace(day=1) if d.month_only else d.start + timedelta(days=1))
            return d.start, end
    m = _VAGUE.search(sentence)
    return _vague(m.group("w").lower(), today) if m else None


def _vague(w: str, today: datetime) -> tuple[datetime, datetime]:
    monday = today - timedelta(days=today.weekday())
    if w == "last week":
        return monday - timedelta(days=7), monday
    if w == "last weekend":
        return monday - timedelta(days=2), monday
    if w == "last night":
        return today - timedelta(days=1), today + timedelta(days=1)
    if w.startswith("this "):
        return today, today + timedelta(days=1)
    if w == "last month":
        first = today.replace(day=1)
        return (first - timedelta(days=1)).replace(day=1), first
    if w == "last year":
        return today.replace(year=today.year - 1, month=1, day=1), today.replace(month=1, day=1)
    # the other day, a few days ago, N weeks ago, a season: a vague stretch before the message
    return today - timedelta(days=45 if ("month" in w or "year" in w or "summer" in w) else 14), today + timedelta(days=1)



def ahead_of(sentence: str, at: datetime) -> tuple[datetime, datetime] | None:
    """When a plan is: the first date after the message's day the sentence names (a day, a
    range, a month), "tonight", or "this weekend"."""
    today = midnight(at)
    for d in find_dates(sentence, at):
        if d.start >= today + timedelta(days=1) or (d.start == today and re.search(r"\btonight\b", sentence, re.I)):
            end = d.end or ((d.start + timedelta(days=32)).replace(day=1) if d.month_only else d.start + timedelta(days=1))
            return d.start, end
    if re.search(r"\bthis weekend\b", sentence, re.I) and today.weekday() < 5:
        saturday = today + timedelta(days=5 - today.weekday())
        return saturday, saturday + timedelta(days=2)
    return None



def zh_when(word: str, at: datetime) -> tuple[datetime, datetime] | None:
    today = midnight(at)
    monday = today - timedelta(days=today.weekday())
    if word in ("上周末",) or word == "周末":
        return monday - timedelta(days=2), monday
    if word.startswith(("上周", "上个星期", "上星期")):
        return monday - timedelta(days=7), monday
    if word in ("上个月", "上月"):
        first = today.replace(day=1)
        return (first - timedelta(days=1)).replace(day=1), first
    if word in ("去年",):
        return today.replace(year=today.year - 1, month=1, day=1), today.replace(month=1, day=1)
    if word in ("刚才", "今天早上", "今早"):
        return today, today + timedelta(days=1)
    return today - timedelta(days=14), today + timedelta(days=1)  # 那天: vague


def named_day(text: str, today: datetime) -> tuple[tuple[datetime, datetime] | None, tuple[int, int]] | None:
    """"On Friday, I got great news", "… on the 15th": a day told in the past without a month is
    the latest such day up to the message's. The day (None: no such date lately) and where the
    sentence names it; None when it names none."""
    on_day = _ON_WD.search(text) or _ON_ORD.search(text)
    if not on_day:
        return None
    if on_day.re is _ON_WD:
        back = (today.weekday() - _WD.index(on_day.group("wd").lower())) % 7 or 7
        return (today - timedelta(days=back), today - timedelta(days=back - 1)), on_day.span()
    return _latest_day_of_month(int(on_day.group("d")), today), on_day.span()
