"""Dates in English and Chinese text, relative to the message's time. No I/O, no model.

Every function returns aware UTC datetimes at midnight of the day meant (docs/format.md: a date alone
is midnight UTC). Ranges are returned half-open with the last day *included*: "Oct 3-7" is
``[Oct 3, Oct 8)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from datetime import datetime, timedelta, timezone
from typing import Callable

from .en_dates import EN_DATES
from .en_tense import tense_near

__all__ = ["MONTHS", "DateSpan", "find_dates", "midnight", "next_year_for"]

MONTHS = {m: i + 1 for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}
MONTH_RE = (r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
            r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
ORD = r"(?:st|nd|rd|th)?"


def midnight(dt: datetime) -> datetime:
    return datetime(dt.year, dt.month, dt.day, tzinfo=timezone.utc)


@dataclass(frozen=True)
class DateSpan:
    """A date (or range) found in text: ``start``; ``end`` (exclusive) for a range; its role."""

    start: datetime
    end: datetime | None
    role: str  # "at", "from" (since / 起), "until" (到 / until: the day included), "end" (之前), "range"
    span: tuple[int, int]
    month_only: bool = False


def _day(year: int, month: int, day: int) -> datetime | None:
    try:
        return datetime(year, month, day, tzinfo=timezone.utc)
    except ValueError:
        return None


def _year_for(month: int, day: int, ref: datetime, explicit: str | None) -> int:
    return int(explicit) if explicit else ref.year


_EN_RANGE = re.compile(
    rf"\b{MONTH_RE}\s+(?P<d1>\d{{1,2}}){ORD}\s*(?:-|–|to|through|until|till)\s*(?:{MONTH_RE.replace('mon', 'mon2')}\s+)?"
    rf"(?P<d2>\d{{1,2}}){ORD}(?:,?\s+(?P<year>\d{{4}}))?", re.IGNORECASE)
_EN_DATE = re.compile(rf"\b{MONTH_RE}\s+(?P<day>\d{{1,2}}){ORD}(?:,?\s+(?P<year>\d{{4}}))?\b", re.IGNORECASE)
_EN_DATE_DM = re.compile(rf"\b(?P<day>\d{{1,2}}){ORD}\s+(?:of\s+)?{MONTH_RE}(?:,?\s+(?P<year>\d{{4}}))?\b", re.IGNORECASE)
_EN_MONTH_YEAR = re.compile(rf"\b{MONTH_RE}\s+(?P<year>\d{{4}})\b", re.IGNORECASE)
_ISO = re.compile(r"\b(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})\b")
_EN_REL = re.compile(r"\b(?P<word>today|tomorrow|yesterday|tonight)\b", re.IGNORECASE)
_EN_FROM = re.compile(r"\b(?:since|from|starting|effective|as of|beginning)\s*(?:on\s+)?$", re.IGNORECASE)
_EN_UNTIL = re.compile(r"\b(?:until|till|through|to|up to|by)\s*$", re.IGNORECASE)
_EN_ON_AFTER = re.compile(r"^\s*(?:on(?:wards?)?|onward)\b", re.IGNORECASE)

_ZH_RANGE = re.compile(r"(?:(?P<year>\d{4})年)?(?P<m1>\d{1,2})月(?P<d1>\d{1,2})[日号]?\s*(?:至|到|-|–|~|—)\s*"
                       r"(?:(?P<m2>\d{1,2})月)?(?P<d2>\d{1,2})[日号]")
_ZH_DATE = re.compile(r"(?:(?P<year>\d{4})年)?(?P<month>\d{1,2})月(?P<day>\d{1,2})[日号]")
_ZH_REL = re.compile(r"(?P<word>今天|今日|明天|明日|后天|昨天|昨日)")
_WEEKDAYS = {d: i for i, d in enumerate(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])}
_ZH_WD = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_EN_WEEKDAY = re.compile(r"\b(?:(?P<next>next|this|coming)\s+)?(?P<wd>monday|tuesday|wednesday|thursday|friday|"
                         r"saturday|sunday)\b", re.IGNORECASE)
_ZH_WEEKDAY = re.compile(r"(?P<which>下下|下个?|这个?|本)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])")
_EN_PART_MONTH = re.compile(rf"\b(?:(?:the\s+)?(?:start|beginning)\s+of|early)\s+{MONTH_RE}(?:\s+(?P<year>\d{{4}}))?\b",
                            re.IGNORECASE)
_EN_NEXT = re.compile(r"\b(?P<what>next week|next month|next year|last month|last year)\b", re.IGNORECASE)
_ZH_NEXT = re.compile(r"(?P<what>下个?月初?|下周|下个?星期|明年|月底|下旬|上个?月|去年)")
_ZH_MONTH_YEAR = re.compile(r"(?P<year>\d{4}|去|今|明)年(?P<month>\d{1,2})月(?![\d])")
# A day of the month without its month ("from the 2nd to the 5th", "until the 20th", "3号到9号",
# "到20号"): the ordinal (or 号) is required, so a bare number ("port 20") is never a day, and a
# Chinese 号 counts only beside a range or an until-word, never a house number ("河湾路88号").
_EN_DAY_RANGE = re.compile(r"\b(?:the\s+)?(?P<d1>\d{1,2})(?:st|nd|rd|th)\s*(?:-|–|to|through|until|till|and)\s*"
                           r"(?:the\s+)?(?P<d2>\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)
_EN_DAY = re.compile(r"\bthe\s+(?P<day>\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:floor|century|time|grade|anniversary|birthday))",
                     re.IGNORECASE)
# "in March", "back in January": this year's month once it has begun (a month still ahead is left
# undated: "moving in May" said in March is a plan whose year the words do not settle).
_EN_IN_MONTH = re.compile(rf"\bin\s+{MONTH_RE}(?!\s*\d)(?!\s+of\b)\b", re.IGNORECASE)
# "since April", "since early March": a month already begun (the latest one up to today).
_EN_SINCE_MONTH = re.compile(rf"\bsince\s+(?:(?:early|mid|late)[\s-]+)?{MONTH_RE}(?!\s*\d)\b", re.IGNORECASE)
_ZH_SINCE_MONTH = re.compile(r"(?<![\d年])(?:从|自)?(?P<month>\d{1,2})月(?:份)?(?:以来|开始就|起就)")
# "3月份" (a month without a day or year), "月初" / "本月初" (this month's first day), "下个月1号".
_ZH_MONTH = re.compile(r"(?<![\d年])(?P<month>\d{1,2})月份?(?![\d日号底初中])")
_ZH_MONTH_START = re.compile(r"(?<![下上])(?:这个月|本月|这月)?月初")
_ZH_NEXT_MONTH_DAY = re.compile(r"下个?月(?P<day>\d{1,2})[号日]")
_ZH_DAY_RANGE = re.compile(r"(?<![\d月路街道巷弄])(?P<d1>\d{1,2})[日号]\s*(?:至|到|-|–|~|—)\s*(?P<d2>\d{1,2})[日号]")
_ZH_DAY_UNTIL = re.compile(r"(?<=到|至)(?P<day>\d{1,2})[日号](?![楼院室栋幢])")

_ZH_REL_DAYS = {"今天": 0, "今日": 0, "明天": 1, "明日": 1, "后天": 2, "昨天": -1, "昨日": -1}
_EN_REL_DAYS = {"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1}


_EN_BACK = re.compile(r"\b(?:back|return|returning|returns|be back|fly back|flying back|home)\s*(?:on\s+|by\s+)?$",
                      re.IGNORECASE)


def _role(text: str, start: int, end: int) -> str:
    before, after = text[max(0, start - 25):start], text[end:end + 12]
    if re.match(r"\s*(?:之后|以后)就?(?:再)?(?:恢复|回滚|切回|改回|换回)", after):
        return "until"  # "周五之后改回去": Friday is its last day
    if re.match(r"\s*(?:之前|以前|(?:就|再)?(?:恢复|回滚|切回|改回|换回))", after):
        return "end"  # "12号之前", "10月8日恢复": an end the day itself is outside of
    if after.lstrip().startswith(("起", "开始", "以后", "之后")) or _EN_ON_AFTER.match(after) or _EN_FROM.search(before):
        return "from"
    if before.rstrip().endswith(("到", "至", "直到")) or _EN_UNTIL.search(before):
        return "until"
    # The day of a return ends what the sentence began ("周五回来", "back on Friday"): its last day.
    if after.lstrip().startswith(("回来", "回京", "回到", "返回", "返程", "回")) or _EN_BACK.search(before):
        return "until"
    return "at"


def find_dates(text: str, ref: datetime) -> list[DateSpan]:
    """Every date or date range in ``text``, in order, resolved against the message time ``ref``.

    The rules of :data:`_RULES` run in turn, and a rule's match counts only where no earlier rule
    matched: ranges before single days, explicit dates before relative words, so "Oct 3-7" is one
    range and not a range and a day. Remembered for the last sentences asked (the statement layer,
    the plan dates and the episodes ask of the same sentence)."""
    return list(_find_dates(text, ref))


@lru_cache(maxsize=2048)
def _find_dates(text: str, ref: datetime) -> tuple[DateSpan, ...]:
    found: list[DateSpan] = []
    for rx, resolve in _RULES:
        for m in rx.finditer(text):
            if all(m.end() <= a or m.start() >= b for a, b in (f.span for f in found)):
                span = resolve(m, text, ref)
                if span is not None:
                    found.append(span)
    found.sort(key=lambda s: s.span)
    return tuple(found)


def _range(m: re.Match[str], y: int, m1: int, m2: int) -> DateSpan | None:
    a, b = _day(y, m1, int(m.group("d1"))), _day(y, m2, int(m.group("d2")))
    return DateSpan(a, b + timedelta(days=1), "range", m.span()) if a and b and b >= a else None


def _zh_range(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"10月3日至7日": the last day included."""
    m1 = int(m.group("m1"))
    return _range(m, _year_for(0, 0, ref, m.group("year")), m1, int(m.group("m2") or m1))


def _en_range(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"Oct 3-7", "March 30 to April 2": the last day included."""
    mon1 = MONTHS[m.group("mon")[:3].lower()]
    mon2 = MONTHS[m.group("mon2")[:3].lower()] if m.group("mon2") else mon1
    return _range(m, _year_for(0, 0, ref, m.group("year")), mon1, mon2)


def _point(d: datetime | None, m: re.Match[str], text: str, month_only: bool = False) -> DateSpan | None:
    return DateSpan(d, None, _role(text, *m.span()), m.span(), month_only=month_only) if d else None


def _numbered_day(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"2026-10-03", "10月3日" (this year unless the text gives one)."""
    month, day = int(m.group("month")), int(m.group("day"))
    return _point(_day(_year_for(month, day, ref, m.group("year")), month, day), m, text)


def _named_day(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"March 1", "1st of March, 2026"."""
    month, day = MONTHS[m.group("mon")[:3].lower()], int(m.group("day"))
    return _point(_day(_year_for(month, day, ref, m.group("year")), month, day), m, text)


def _en_month_year(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"January 2026": the month."""
    return _point(_day(int(m.group("year")), MONTHS[m.group("mon")[:3].lower()], 1), m, text, True)


def _zh_month_year(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"2026年1月", "去年12月": the month."""
    y = m.group("year")
    year = int(y) if y.isdigit() else ref.year + {"去": -1, "今": 0, "明": 1}[y]
    return _point(_day(year, int(m.group("month")), 1), m, text, True)


def _en_relative(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"today", "tomorrow", "yesterday", "tonight"."""
    return _point(midnight(ref) + timedelta(days=_EN_REL_DAYS[m.group("word").lower()]), m, text)


def _zh_relative(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """今天, 明天, 后天, 昨天."""
    return _point(midnight(ref) + timedelta(days=_ZH_REL_DAYS[m.group("word").lower()]), m, text)


def _en_part_month(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"early March", "the start of May": that month (the next one of that name)."""
    month = MONTHS[m.group("mon")[:3].lower()]
    year = int(m.group("year")) if m.group("year") else next_year_for(month, ref)
    return _point(_day(year, month, 1), m, text, True)


_PAST_BEFORE = re.compile(r"\b(?:started|moved|left|joined|arrived|began|quit|landed|got back|came back|returned|"
                         r"relocated|resigned|signed|finished|switched)\s+(?:on\s+)?$", re.IGNORECASE)


def _en_weekday(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"Friday" (the next one, today included), "next Friday" (a week on if today), "last Friday"."""
    today = midnight(ref)
    ahead = (_WEEKDAYS[m.group("wd").lower()] - today.weekday()) % 7
    if "last" in text[max(0, m.start() - 6):m.start()].lower() or (
            not m.group("next") and _PAST_BEFORE.search(text[max(0, m.start() - 16):m.start()])) or (
            not m.group("next") and _role(text, *m.span()) == "at" and tense_near(text, *m.span()) == "past"):
        ahead -= 7 if ahead else 7  # "last Friday", "started Monday", "left on Friday", "On Monday I moved"
    elif (m.group("next") or "").lower() == "next" and ahead == 0:
        ahead = 7
    return _point(today + timedelta(days=ahead), m, text)


_EN_WEEKDAY_RANGE = re.compile(r"\b(?:(?P<next>next|this|coming)\s+)?(?P<wd>monday|tuesday|wednesday|thursday|friday|"
                               r"saturday|sunday)\s*(?:-|–|to|through|thru|till|until)\s*(?P<wd2>monday|tuesday|"
                               r"wednesday|thursday|friday|saturday|sunday)\b", re.IGNORECASE)


def _en_weekday_range(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"Monday to Wednesday", "Thu-Sun": the first day as a weekday alone, the last the first such
    day after it (included) — "Monday to Wednesday" said on a Tuesday is next week's three days."""
    first = _en_weekday(m, text, ref)
    if first is None:
        return None
    last = first.start + timedelta(days=(_WEEKDAYS[m.group("wd2").lower()] - first.start.weekday()) % 7)
    return DateSpan(first.start, last + timedelta(days=1), "range", m.span())


def _zh_weekday(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """周五 (this week's, or next week's once passed), 下周五, 下下周五, 上周五."""
    today = midnight(ref)
    monday = today - timedelta(days=today.weekday())
    which = m.group("which") or ""
    weeks = 2 if which == "下下" else 1 if which.startswith("下") else 0
    if "上" in text[max(0, m.start() - 1):m.start()]:
        weeks = -1
    d = monday + timedelta(days=7 * weeks + _ZH_WD[m.group("wd")])
    if not which and weeks == 0 and d < today:
        d += timedelta(days=7)
    return _point(d, m, text)


def _month_day(day: int, ref: datetime, past: bool) -> datetime | None:
    """A day of the month named without its month: the next one from today (this month's when not
    yet past), or with ``past`` (after "since") the latest one up to today."""
    today = midnight(ref)
    y, mo = today.year, today.month
    for _ in range(3):
        d = _day(y, mo, day)
        if d is not None and (d <= today if past else d >= today):
            return d
        if past:
            y, mo = (y - 1, 12) if mo == 1 else (y, mo - 1)
        else:
            y, mo = (y + 1, 1) if mo == 12 else (y, mo + 1)
    return None


def _zh_month(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"3月份离职了": this year's month once it has begun; a month still ahead is last year's when
    the sentence tells a done thing (了), else this year's (a plan)."""
    month = int(m.group("month"))
    if not 1 <= month <= 12:
        return None
    year = ref.year if month <= ref.month or "了" not in text else ref.year - 1
    return _point(_day(year, month, 1), m, text, True)


def _zh_month_start(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """月初: the first day of this month."""
    return _point(_day(ref.year, ref.month, 1), m, text, True)


def _zh_next_month_day(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """下个月1号: that day of next month."""
    return _point(_day(ref.year + (ref.month == 12), ref.month % 12 + 1, int(m.group("day"))), m, text)


def _in_month(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"in March": the first of this year's March once it has begun, else no date. "may" only as a
    name ("in May", not "in may")."""
    if m.group("mon").lower() == "may" and not m.group("mon")[0].isupper():
        return None
    month = MONTHS[m.group("mon")[:3].lower()]
    return _point(_day(ref.year, month, 1), m, text, True) if month <= ref.month else None


def _since_month(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"since April" (the latest April up to today), "4月以来": where that month began."""
    month = MONTHS[m.group("mon")[:3].lower()] if "mon" in m.groupdict() else int(m.group("month"))
    if not 1 <= month <= 12:
        return None
    year = ref.year if month <= ref.month else ref.year - 1
    return DateSpan(datetime(year, month, 1, tzinfo=timezone.utc), None, "from", m.span(), month_only=True)


def _day_range(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"from the 2nd to the 5th", "3号到9号": the month of the first day (the next such day), the last
    day included; a last day before the first runs into the next month ("the 28th to the 3rd")."""
    today = midnight(ref)
    d1 = int(m.group("d1"))
    here = _day(today.year, today.month, d1)
    # A range of this month that has begun but not ended ("from the 8th to the 12th" on the 10th).
    a = here if here is not None and here <= today <= (_day(today.year, today.month, int(m.group("d2"))) or here) \
        else _month_day(d1, ref, False)
    if a is None:
        return None
    d2 = int(m.group("d2"))
    b = _day(a.year, a.month, d2) if d2 >= a.day else _day(a.year + (a.month == 12), a.month % 12 + 1, d2)
    return DateSpan(a, b + timedelta(days=1), "range", m.span()) if b else None


def _bare_day(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"until the 20th", "on the 3rd", "since the 1st", "到20号"."""
    day = int(m.group("day"))
    if re.search(r"\bsince\s*$", text[max(0, m.start() - 8):m.start()], re.IGNORECASE):
        return _point(_month_day(day, ref, True), m, text)
    ahead = _month_day(day, ref, False)
    if _role(text, *m.span()) == "until" or ahead is None:
        return _point(ahead, m, text)
    # "on the 1st": by the tense around it ("started on the 3rd", "starting on the 8th"), else the
    # nearer of the last and the next such day.
    behind = _month_day(day, ref, True)
    today, tense = midnight(ref), tense_near(text, *m.span())
    near = behind if behind is not None and (
        tense == "past" or (tense is None and (today - behind) < (ahead - today))) else ahead
    return _point(near, m, text)


def _period(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"next week", "last month", 下个月, 明年: where that period starts; "到月底" (until the end of
    the month): its last day."""
    what = m.group("what").lower()
    if what == "月底" and _role(text, *m.span()) == "until":
        today = midnight(ref)
        first_next = datetime(today.year + (today.month == 12), today.month % 12 + 1, 1, tzinfo=timezone.utc)
        return _point(first_next - timedelta(days=1), m, text)
    return _point(_next_period(what, midnight(ref)), m, text, True)


_Resolve = Callable[[re.Match[str], str, datetime], DateSpan | None]
# The date rules, in the order they claim text (see find_dates).
def _extra(day: Callable[[re.Match[str], datetime], datetime | None]) -> _Resolve:
    return lambda m, text, ref: _point(day(m, ref), m, text)


_RULES: tuple[tuple[re.Pattern[str], _Resolve], ...] = (
    (_ZH_NEXT_MONTH_DAY, _zh_next_month_day), (_ZH_RANGE, _zh_range), (_EN_RANGE, _en_range), (_ISO, _numbered_day), (_ZH_DATE, _numbered_day),
    (_EN_DATE, _named_day), (_EN_DATE_DM, _named_day), (_EN_MONTH_YEAR, _en_month_year), (_EN_REL, _en_relative),
    (_ZH_REL, _zh_relative), (_ZH_MONTH_YEAR, _zh_month_year), (_EN_PART_MONTH, _en_part_month),
    (_EN_WEEKDAY_RANGE, _en_weekday_range), (_EN_WEEKDAY, _en_weekday), (_ZH_WEEKDAY, _zh_weekday), (_EN_NEXT, _period), (_ZH_NEXT, _period),
    (_ZH_MONTH, _zh_month), (_ZH_MONTH_START, _zh_month_start), (_EN_SINCE_MONTH, _since_month), (_EN_IN_MONTH, _in_month), (_ZH_SINCE_MONTH, _since_month), (_EN_DAY_RANGE, _day_range), (_ZH_DAY_RANGE, _day_range), (_EN_DAY, _bare_day), (_ZH_DAY_UNTIL, _bare_day)) + tuple(
    (rx, _extra(day)) for rx, day in EN_DATES)  # English extras: .en_dates


def next_year_for(month: int, ref: datetime) -> int:
    """The year of the next ``month`` not before ``ref``'s (this month counts): a plan's month."""
    return ref.year if month >= ref.month else ref.year + 1


def _next_period(what: str, today: datetime) -> datetime | None:
    if what in ("next week", "下周", "下星期", "下个星期"):
        return today + timedelta(days=7 - today.weekday())
    if what.startswith(("next month", "下个月", "下月")):
        return datetime(today.year + (today.month == 12), today.month % 12 + 1, 1, tzinfo=timezone.utc)
    if what in ("last month", "上个月", "上月"):
        return datetime(today.year - (today.month == 1), (today.month - 2) % 12 + 1, 1, tzinfo=timezone.utc)
    if what in ("last year", "去年"):
        return datetime(today.year - 1, 1, 1, tzinfo=timezone.utc)
    if what in ("next year", "明年"):
        return datetime(today.year + 1, 1, 1, tzinfo=timezone.utc)
    return None  # 月底 / 下旬: too vague to date
