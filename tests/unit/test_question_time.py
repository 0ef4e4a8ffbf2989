"""The time a question asks about (graphmem.recall.task_time.question_time, issue #44): read from
its words in every common wording, English and Chinese, as date expressions — not a phrase list."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.recall.episodic import asks_about_past
from graphmem.recall.task_time import question_time

NOW = datetime(2026, 12, 4, 13, 36, 29, tzinfo=timezone.utc)


def utc(*a: int) -> datetime:
    return datetime(*a, tzinfo=timezone.utc)


END = timedelta(microseconds=1)


@pytest.mark.parametrize("task,at", [
    ("Where did Maya work in March 2026?", utc(2026, 4, 1) - END),
    ("Where did she live on February 20, 2026?", utc(2026, 2, 20)),
    ("Where did she live on 20 February?", utc(2026, 2, 20)),
    ("Where did she live on 2026-02-20?", utc(2026, 2, 20)),
    ("Where did she live in 2024?", utc(2025, 1, 1) - END),
    ("Where did Maya work last year?", utc(2026, 1, 1) - END),
    ("Where was she two weeks ago?", utc(2026, 11, 20)),
    ("Where did she work 3 months ago?", utc(2026, 9, 4)),
    ("Where was she a year ago?", utc(2025, 12, 4)),
    ("Where did she live back in May?", utc(2026, 6, 1) - END),
    ("Where did she live in March last year?", utc(2025, 4, 1) - END),
    ("Where did she live yesterday?", utc(2026, 12, 3)),
    ("玛雅去年在哪里工作？", utc(2026, 1, 1) - END),
    ("她2024年住在哪里？", utc(2025, 1, 1) - END),
    ("三月份的时候她住在哪里？", utc(2026, 4, 1) - END),  # 的时候: past, so this year's March
    ("上个月她在哪儿上班？", utc(2026, 12, 1) - END),
    ("两周前她住在哪？", utc(2026, 11, 20)),
    ("三个月前她在哪工作", utc(2026, 9, 4)),
    ("她两年前在哪工作？", utc(2024, 12, 4)),
    ("前年她住哪", utc(2025, 1, 1) - END),
    ("她去年三月住在哪？", utc(2025, 4, 1) - END),
    ("2025年3月她住在哪？", utc(2025, 4, 1) - END),
    ("昨天她在哪", utc(2026, 12, 3)),
])
def test_a_dated_question_asks_about_the_time_it_names(task, at):
    q = question_time(task, NOW)
    assert q is not None and q.at == at and q.past
    assert q.start <= at < q.end or at == q.start


def test_a_range_holding_now_asks_about_now_and_a_future_day_about_its_start():
    assert question_time("Where does Maya work this year?", NOW).at == NOW
    plan = question_time("Where will Maya be on Dec 20?", NOW)
    assert plan.at == utc(2026, 12, 20) and not plan.past


@pytest.mark.parametrize("task", ["Where does Maya live?", "Where did Maya work?", "她以前住在哪里？",
                                  "Where did Maya work a few months ago?"])
def test_no_date_no_question_time(task):
    assert question_time(task, NOW) is None


@pytest.mark.parametrize("task", ["Where did Maya work?", "Where was Maya living?", "她以前住在哪里？", "她去年住在哪里",
                                  "Where was she two weeks ago?", "她在哪里工作了？"])
def test_a_past_tense_question_without_a_date_reaches_history(task):
    assert asks_about_past(task)


@pytest.mark.parametrize("task", ["Where does Maya live?", "who leads proj? Ann", "玛雅住在哪里？"])
def test_a_present_question_does_not(task):
    assert not asks_about_past(task)


@given(st.text(max_size=80))
def test_any_text_gives_a_time_inside_its_range_or_none(task):
    q = question_time(task, NOW)
    assert q is None or (q.start < q.end and q.start <= q.at < q.end)
