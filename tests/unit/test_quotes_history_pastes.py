"""Pasted documents without a date of their own are data, not a dated quote (issue #43, item 4).

A pasted encyclopedia article once became a "quoted old document" (a year inside it dated it) and
drew ``user / home_city = "EU. Under"``. Pasted prose, a README or tool output draws nothing unless
the speaker's own words before it date it; and a quote is dated only by the words that introduce
it, never by years further back in the text.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.core.models import MessageEvent
from graphmem.extract import RuleExtractor
from graphmem.extract.quotes import find_quote, pasted_at

AT = datetime(2026, 9, 28, 10, tzinfo=timezone.utc)
EX = RuleExtractor()

PASTES = [
    # an encyclopedia article, years inside, a "record shows" cue and a place after "EU."
    "Brussels is the capital of Belgium and the de facto capital of the European Union. In 1958 the city became "
    "home to the European Economic Community. The 1993 record shows that the Council meets here, and since then "
    "Brussels has hosted the main institutions of the EU. Under Belgian law the Brussels-Capital Region is one of "
    "three regions, and many officials live in Brussels.",
    "Paris (French pronunciation: [paʁi]) is the capital and largest city of France. The 2023 census record shows "
    "a population of 2.1 million. The city is a major railway hub. I live in Paris, says the old song.",
    # a README
    "# graphmem\n\nA temporal memory store for AI agents, built on Neo4j (first released 2024).\n\n## Install\n\n"
    "    pip install graphmem\n\nThe config file says the port is 7687. I live in the docs folder.\n",
    # tool output
    "$ git log -1\ncommit 56a711b (HEAD -> main)\nDate:   Mon Mar 2 2026\n\n    note says the deploy port is 9000\n",
    "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\nValueError: the port is 8080\n",
    # Chinese: an encyclopedia paste and a pasted log
    "柏林是德国的首都和最大城市。1990年两德统一后，柏林再次成为德国首都。根据2023年的统计记录显示人口约为378万。"
    "该市位于施普雷河畔，我住在市中心的说法并不准确。",
    "上海是中国的直辖市之一，位于长江入海口。2010年上海举办了世界博览会。档案上写着，这座城市的常住人口超过两千万。"
    "我住浦东这句话出自一首老歌。",
    "2026-03-02 10:00:01 INFO 服务启动，端口是9000\n2026-03-02 10:00:02 INFO 连接数据库成功\n"
    "2026-03-02 10:00:03 WARN 配置文件显示端口是8000\n",
]


def msg(text: str) -> MessageEvent:
    return MessageEvent(op="message", id="m1", at=AT, speaker="user", text=text)


@pytest.mark.parametrize("text", PASTES)
def test_a_paste_without_a_date_of_its_own_draws_nothing_and_is_no_quote(text):
    assert pasted_at(text) is not None
    q = find_quote(text, "zh" if "的" in text else "en", AT)
    assert q is not None and q.at is None  # a document with no date: no claims, no quote event
    assert EX.draw(msg(text)) == []


def test_the_speakers_own_words_date_a_paste():
    text = "Here's the March 2025 README:\n# app\n\nThe port is 7000.\n\n    make run\n"
    q = find_quote(text, "en", AT)
    assert q is not None and q.at == datetime(2025, 3, 1, tzinfo=timezone.utc)
    assert q.lead == "Here's the March 2025 README:\n"
    drawn = EX.draw(msg(text))
    assert [e["op"] for e in drawn] == ["source", "quote"]  # history at its date, never a set


@pytest.mark.parametrize("text", [
    "I moved to Berlin last year. I work at Initech now, and I love my team there.",
    "Went hiking today and the view was great. My legs hurt a lot. I live at 12 Elm St by the way.",
    "我住在青禾路。我在星辰科技工作。我对花生过敏，吃饭要注意。",
    "Hey Mia! Long time no talk! Work has been busy lately. I finally opened the bakery on Main Street last month "
    "and it has been packed every morning since.",
    "That sounds lovely, Tom. Gardening is such a calm hobby. Growing your own tomatoes must feel great, and the "
    "neighbours probably love the extra ones too.",
    "今天太累了吧。下班路上还下雨了呢。明天再说啊，晚安。",
])
def test_someone_talking_is_not_a_paste(text):
    assert pasted_at(text) is None


def test_a_quote_is_dated_by_its_own_words_not_by_years_further_back():
    text = ("We visited in 2019 and loved it. The food was great. The weather was fine. "
            "The lease says I live at 12 Elm St.")
    q = find_quote(text, "en", AT)
    assert q is not None and q.at is None  # "2019" is the visit's, not the lease's
    assert EX.draw(msg(text)) == []
    near = "Back in 2024 I signed a lease. The lease says I live at 12 Elm St."
    q = find_quote(near, "en", AT)
    assert q is not None and q.at == datetime(2024, 1, 1, tzinfo=timezone.utc)


def test_a_forwarded_memo_is_dated_by_its_subject_line():
    q = find_quote("Fwd: March memo — the deploy port is 7000", "en", AT)
    assert q is not None and q.at == datetime(2026, 3, 1, tzinfo=timezone.utc)
    assert q.quoted == "the deploy port is 7000"
    q = find_quote("Fwd: next March memo — the deploy port is 7000", "en", AT)
    assert q is not None and q.at is None
    q = find_quote("Fwd: May invoice — the deploy port is 7000", "en", AT)
    assert q is not None and q.at == datetime(2026, 5, 1, tzinfo=timezone.utc)
    q = find_quote("Fwd: you may text me — the deploy port is 7000", "en", AT)  # "may" the verb dates nothing
    assert q is not None and q.at is None
