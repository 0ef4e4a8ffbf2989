"""The time range a task names (graphmem.recall.task_time): a question in the past tense reads a
year-less date or month as the latest one not after the time it asks about; other tasks as the next."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.recall.task_time import task_range

REF = datetime(2024, 1, 12, 9, tzinfo=timezone.utc)  # a Friday


def utc(*a: int) -> datetime:
    return datetime(*a, tzinfo=timezone.utc)


@pytest.mark.parametrize("task,expected", [
    ("Where was John between August 11 and August 15 2023?", (utc(2023, 8, 11), utc(2023, 8, 16))),
    ("What did they do between 3 March and 5 March?", (utc(2023, 3, 3), utc(2023, 3, 6))),
    ("Which country was Tim visiting in the second week of November?", (utc(2023, 11, 8), utc(2023, 11, 15))),
    ("Who did she meet in the last week of December 2022?", (utc(2022, 12, 25), utc(2023, 1, 1))),
    ("Where was Tim in the week before 16 November 2023?", (utc(2023, 11, 9), utc(2023, 11, 16))),
    ("What did they do the week after March 3, 2023?", (utc(2023, 3, 4), utc(2023, 3, 11))),
    ("Which tournament did Nate win in the beginning of November 2022?", (utc(2022, 11, 1), utc(2022, 11, 11))),
    ("What did she bake in mid-October?", (utc(2023, 10, 11), utc(2023, 10, 21))),
    ("When did Melanie go camping in June?", (utc(2023, 6, 1), utc(2023, 7, 1))),
    ("What did he do in January?", (utc(2024, 1, 1), utc(2024, 2, 1))),  # this month counts
    ("When did Caroline go to a pride parade during the summer?", (utc(2023, 6, 1), utc(2023, 9, 1))),
    ("What happened last summer?", (utc(2023, 6, 1), utc(2023, 9, 1))),
    ("Where did they go in summer 2021?", (utc(2021, 6, 1), utc(2021, 9, 1))),
    ("What did John do on Jan 20?", (utc(2023, 1, 20), utc(2023, 1, 21))),  # past tense: not next week
    ("What did Mel do in May 2023?", (utc(2023, 5, 1), utc(2023, 6, 1))),
    ("What movie did Joanna watch on 1 May, 2022?", (utc(2022, 5, 1), utc(2022, 5, 2))),
    ("last week", (utc(2024, 1, 1), utc(2024, 1, 8))),
    ("what happened in 2022?", (utc(2022, 1, 1), utc(2023, 1, 1))),
    ("去年我们去了哪里", (utc(2023, 1, 1), utc(2024, 1, 1))),
    ("他六月去了哪里？", (utc(2023, 6, 1), utc(2023, 7, 1))),
    ("她12月份做了什么", (utc(2023, 12, 1), utc(2024, 1, 1))),
    ("去年夏天他在哪里", (utc(2023, 6, 1), utc(2023, 9, 1))),
    # a count of months back is a month-wide window around the day (issue #44: read, not ignored)
    ("她三个月前开始学画画", (utc(2023, 9, 27), utc(2023, 10, 28))),
])
def test_named_ranges(task, expected):
    assert task_range(task, REF) == expected


@pytest.mark.parametrize("task", [
    "What did she do at summer camp?", "Where is the package?", "Which spring collection did she like?",
    "He may come by", "She started painting a few months ago"])
def test_no_range(task):
    assert task_range(task, REF) is None


def test_a_task_that_is_not_about_the_past_reads_dates_ahead():
    # "Where should I send the package on Oct 5?" asked in January: the coming Oct 5, as in a message
    assert task_range("Where should I send the package on Oct 5?", REF) == (utc(2024, 10, 5), utc(2024, 10, 6))
    assert task_range("What is planned in March?", REF) == (utc(2024, 3, 1), utc(2024, 4, 1))


@given(st.text(max_size=80), st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2090, 1, 1)))
def test_any_text_gives_a_nonempty_range_or_none(task, ref):
    found = task_range(task, ref.replace(tzinfo=timezone.utc))
    assert found is None or found[0] < found[1]
