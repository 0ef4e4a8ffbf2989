"""Chinese spans of days the generic date rules (:mod:`.dates`) read piece by piece.

:func:`find_dates` is :func:`.dates.find_dates` with these readings on top, for text with Han
characters (English text is returned as it is):

* a weekday range, "下周一到周三", "周二到周四" (after a 下周 in the sentence: next week's), is one
  range, the last day included — not a start and a stray "until Wednesday" of this week;
* "6.15-6.20", "6/15-6/20" (month.day) is a range like "6月15日-6月20日";
* a week as the span of a stay, "这周/本周/这礼拜" (to the Monday after: PEOPLE.md) and
  "下周都/下周全周/下周一整周" (next Monday to the Monday after), unless the sentence tells a
  change (搬, 入职, 离职…): "这周入职了腾讯" is no week-long job;
* "周五前/12号前" ends before that day, like "之前";
* a return day ("周四回公司") after a range is where the range already ends: dropped.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta

from . import dates as _dates
from .dates import DateSpan, midnight

__all__ = ["find_dates"]

_HAN = re.compile(r"[\u4e00-\u9fff]")
_WD = "一二三四五六日天"
_WD_RANGE = re.compile(r"(?P<which>下下|下个?|这个?|本)?(?:周|星期|礼拜)(?P<a>[一二三四五六日天])\s*(?:到|至|-|–|~|—)\s*"
                       r"(?:(?:周|星期|礼拜)(?P<b>[一二三四五六日天])|(?P<b2>[一二三四五六日天]))")
_DOT_RANGE = re.compile(r"(?<![A-Za-z\d.])(?P<m1>\d{1,2})[./](?P<d1>\d{1,2})\s*(?:-|–|~|—|到|至)\s*"
                        r"(?:(?P<m2>\d{1,2})[./])?(?P<d2>\d{1,2})(?![\d.])")
_THIS_WEEK = re.compile(r"(?:这周|本周|这礼拜|这个礼拜|这个星期|这一周|这个周)(?![末一二三四五六日天])")
_DAY_BEFORE = re.compile(r"(?<![\d月路街道巷弄])(?P<day>\d{1,2})[日号](?=之前|以前|前)")
_LEAD_DAY = re.compile(r"(?:^|(?<=[，,\s：:]))(?P<day>\d{1,2})[号日](?=[\u4e00-\u9fff])(?![楼院室栋幢线门床位号])(?!之前|以前|前|到|至)")
_PLAN = re.compile(r"\s*(?:就|要|会|正式|开始)?(?:去|来|到|开始|起|入职|报到|报道|搬|飞|出发|上班|生效)")
_VERSION = re.compile(r"版本|版|[Vv]ersion|\b[Vv]\d")
_NEXT_WEEK_ALL = re.compile(r"下(?:个)?(?:周|星期|礼拜)(?:都|全周|一整周|整周|一周|全部|全程)")
_CHANGE = re.compile(r"搬|入职|离职|辞职|报到|报道|跳槽|加入|定居|落户|退租|换了|改成了|开始")
_BEFORE = re.compile(r"^(?:前|以前|之前)")


def find_dates(text: str, ref: datetime) -> list[DateSpan]:
    """Every date of ``text`` (see :func:`.dates.find_dates`), with the Chinese spans above."""
    found = _dates.find_dates(text, ref)
    if not _HAN.search(text):
        return found
    extra: list[DateSpan] = []
    for m in _WD_RANGE.finditer(text):
        span = _weekday_range(m, text, ref)
        if span is not None:
            extra.append(span)
    for m in _DOT_RANGE.finditer(text) if not _VERSION.search(text) else ():
        span = _dot_range(m, ref)
        if span is not None:
            extra.append(span)
    for m in _LEAD_DAY.finditer(text):  # "10号搬离了华清嘉园": a day of the month that opens a clause
        clause = re.split(r"[，,。！!；;]", text[m.end():], maxsplit=1)[0]
        lead = DateSpan(day, None, "at", m.span()) if "了" in clause and (
            day := _dates._month_day(int(m.group("day")), ref, True)) else _dates._bare_day(m, text, ref)
        if lead is not None and not any(a <= m.start() < b for a, b in (d.span for d in found)):
            extra.append(lead)
    for m in _DAY_BEFORE.finditer(text):
        day = _dates._month_day(int(m.group("day")), ref, False)
        if day is not None and not any(a <= m.start() < b for a, b in (d.span for d in found)):
            extra.append(DateSpan(day, None, "end", m.span()))
    if not _CHANGE.search(text):
        monday = midnight(ref) + timedelta(days=7 - midnight(ref).weekday())
        for m in _NEXT_WEEK_ALL.finditer(text):
            extra.append(DateSpan(monday, monday + timedelta(days=7), "range", m.span()))
        for m in _THIS_WEEK.finditer(text):
            if not any(a <= m.start() < b for a, b in (e.span for e in extra)):
                extra.append(DateSpan(monday - timedelta(days=1), None, "until", m.span()))
    kept = [d for d in found if all(d.span[1] <= a or d.span[0] >= b for a, b in (e.span for e in extra))]
    out = sorted(kept + extra, key=lambda d: d.span)
    out = [replace(d, role="end") if d.role in ("at", "until") and _BEFORE.match(text[d.span[1]:]) else d for d in out]
    out = [_ahead(_next_week(d, text, ref), text, ref) for d in out]
    ranges = [d for d in out if d.role == "range" and d.end is not None]
    # "下周我在成都，周二到周四": the week only places the days that follow; the days are the span.
    out = [d for d in out if not (d.role == "at" and re.fullmatch(r"下(?:个)?(?:周|星期|礼拜)", text[d.span[0]:d.span[1]])
                                  and any(d.start <= r.start < d.start + timedelta(days=7) for r in ranges))]
    if ranges:
        # "周一到周三在北京，周四回公司": the return day is the range's own end.
        out = [d for d in out if not (d.role == "until" and d.span[0] > ranges[0].span[1]
                                      and re.match(r"\s*回", text[d.span[1]:]) and d.start <= (ranges[0].end or d.start))]
    return out


def _ahead(d: DateSpan, text: str, ref: datetime) -> DateSpan:
    """"1月4号去PingCAP报到" said in December: a day with no year that a plan is set on (去, 入职,
    搬…, and nothing in its clause that says done: 了, 过, 完, "…搬的") is the next such day, not one long past."""
    clause = re.split(r"[，,。！!；;]", text[d.span[1]:], maxsplit=1)[0]
    if d.role not in ("at", "from") or d.month_only or d.start >= midnight(ref) - timedelta(days=45) \
            or "年" in text[d.span[0]:d.span[1]] or not re.match(r"\d{1,2}月\d{1,2}[日号]?$", text[d.span[0]:d.span[1]]) \
            or not _PLAN.match(clause) or re.search(r"了|过|完|的[\s。！!]*$", clause):  # "是2月25日搬的": done
        return d
    later = _dates._day(d.start.year + 1, d.start.month, d.start.day)
    return replace(d, start=later) if later is not None else d


def _next_week(d: DateSpan, text: str, ref: datetime) -> DateSpan:
    """"我下周出差去广州，周四回", "下周二去北京，周五回来": a bare weekday after a 下周 of the sentence
    is next week's (the week after, when it comes before the 下周X it follows)."""
    if not re.fullmatch(r"(?:周|星期|礼拜)[一二三四五六日天]", text[d.span[0]:d.span[1]]):
        return d
    before = list(re.finditer(r"下(?:个)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])?", text[:d.span[0]]))
    if not before:
        return d
    monday = midnight(ref) + timedelta(days=7 - midnight(ref).weekday())
    day = min(_WD.index(text[d.span[1] - 1]), 6)
    first = before[-1].group("wd")  # "下周五出发，周一回来": the Monday after that Friday
    weeks = 1 if first is not None and day < min(_WD.index(first), 6) else 0
    return replace(d, start=monday + timedelta(days=7 * weeks + day))


def _weekday_range(m: re.Match[str], text: str, ref: datetime) -> DateSpan | None:
    """"下周一到周三" → [next Monday, next Thursday); a bare "周二到周四" is this week's (the next
    week's once it has passed), or next week's when the sentence said 下周 before it."""
    today = midnight(ref)
    monday = today - timedelta(days=today.weekday())
    which = m.group("which") or ""
    weeks = 2 if which == "下下" else 1 if which.startswith("下") else 0
    if not which and re.search(r"下(?:个)?(?:周|星期|礼拜)(?![一二三四五六日天])", text[:m.start()]):
        weeks = 1
    a = _WD.index(m.group("a")) if m.group("a") != "天" else 6
    b_char = m.group("b") or m.group("b2")
    b = _WD.index(b_char) if b_char != "天" else 6
    a, b = min(a, 6), min(b, 6)
    if b < a:
        return None
    start = monday + timedelta(days=7 * weeks + a)
    if not which and weeks == 0 and monday + timedelta(days=b) < today:
        start += timedelta(days=7)
    return DateSpan(start, start + timedelta(days=b - a + 1), "range", m.span())


def _dot_range(m: re.Match[str], ref: datetime) -> DateSpan | None:
    """"6.15-6.20": this year's days (next year's once the range has passed), the last included."""
    m1, d1, d2 = int(m.group("m1")), int(m.group("d1")), int(m.group("d2"))
    m2 = int(m.group("m2") or m1)
    for year in (ref.year, ref.year + 1):
        a, b = _dates._day(year, m1, d1), _dates._day(year, m2, d2)
        if a is None or b is None or b < a:
            return None
        if b + timedelta(days=1) > midnight(ref) or year > ref.year:
            return DateSpan(a, b + timedelta(days=1), "range", m.span())
    return None
