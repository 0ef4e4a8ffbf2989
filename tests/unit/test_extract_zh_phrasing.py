"""More Chinese phrasings of the built-in topics (issue #43, second round), each with near-misses
that must draw nothing: paraphrases over the clause (定居/长居/base/安家, 干了N年, 成为X的一员,
公司是X), a move's start and end (从X迁到Y, 离开X, 搬离X), languages asked of the listener,
a bare allergy at the start, ports kept or changed, and the words the character gates misread
(联想, 不变, 跟你们说).

The sentences are the tests' own, not the labelled sets'. No database: text in, events out.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.core.models import MessageEvent
from graphmem.extract import RuleExtractor

AT = datetime(2026, 3, 4, 9, tzinfo=timezone.utc)  # a Wednesday



def events(ex: RuleExtractor, text: str, about: str | None = None) -> list[tuple[str, str, str | None]]:
    m = MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text, about=about)
    return [(e["op"], e["topic"], e.get("value")) for e in ex.extract(m) if e["op"] in ("set", "revoke")]


@pytest.mark.parametrize("text, topic, value", [
    ("定居青岛快八年了，早习惯了海风", "home_city", "青岛"),
    ("长居杭州第三年，还是爱吃片儿川", "home_city", "杭州"),
    ("目前base上海，偶尔出差", "home_city", "上海"),
    ("老家在东北，不过现在住大连", "home_city", "大连"),
    ("工作稳定了，家也安在了苏州", "home_city", "苏州"),
    ("我的新家在浦东新区张杨路500号，欢迎来玩", "home_address", "浦东新区张杨路500号"),
    ("租的房子在朝阳区望京街道，离公司近", "home_address", "朝阳区望京街道"),
    ("地址是天河区中山大道西段88号", "home_address", "天河区中山大道西段88号"),
    ("在网易干了快五年了，还算稳定", "employer", "网易"),
    ("今天入职，正式成为美团的一员", "employer", "美团"),
    ("在外企做财务，公司是拜耳", "employer", "拜耳"),
    ("现在在一家叫「星河数据」的创业公司写代码", "employer", "星河数据"),
    ("上个月从百度跳到了字节", "employer", "字节"),
    ("我在联想（北京）做测试", "employer", "联想（北京）"),
    ("新公司是理想汽车，下周报到", "employer", "理想汽车"),
    ("以后你跟我说话用英语吧，我想练练", "reply_language", "英语"),
    ("以后回复我用繁体中文", "reply_language", "繁体中文"),
    ("周报以后用英文写给我", "report_language", "英文"),
    ("花生过敏，麻烦备注一下", "allergy", "花生"),
    ("芒果过敏+1", "allergy", "芒果"),
    ("跟你们说个事，我下个月搬去珠海", "home_city", "珠海"),
])
def test_phrasings(ex: RuleExtractor, text: str, topic: str, value: str) -> None:
    assert ("set", topic, value) in events(ex, text)


@pytest.mark.parametrize("text, about, want", [
    ("api-gw 已经从内网迁到公网了", "api-gw", [("set", "network", "公网")]),
    ("api-gw 端口还是8443不变", "api-gw", [("set", "port", "8443")]),
    ("api-gw 端口由 8080 变更为 8090", "api-gw", [("set", "port", "8090")]),
    ("api-gw 线上监听的是 9000 端口", "api-gw", [("set", "port", "9000")]),
    ("我上周正式离开京东，目前在美团上班", None, [("revoke", "employer", None), ("set", "employer", "美团")]),
    ("我搬离了望京花园，新家还没定", None, [("revoke", "home_address", None)]),
])
def test_changes(ex: RuleExtractor, text: str, about: str | None, want: list[tuple[str, str, str | None]]) -> None:
    assert events(ex, text, about) == want


@pytest.mark.parametrize("text", [
    "梦见自己搬到了冰岛",  # a dream
    "我大概下个月开始吃素",  # a hedge
    "我估计会搬到杭州",  # a hedge
    "我在外企上班",  # a kind of employer, not its name
    "我离开北京了",  # a city is no employer
    "我想搬到杭州",  # a wish
    "我对象在网易干了快五年了",  # someone else's
    "皮肤过敏，最近别找我打球",  # a symptom, not an allergen
    "你跟他说你在京东上班",  # second person
    "定居的事以后再说",  # no place
    "搬到哪里还没想好",  # no place
])
def test_near_misses(ex: RuleExtractor, text: str) -> None:
    assert events(ex, text) == []


def test_the_date_of_an_ending_is_not_the_date_of_what_is_now(ex: RuleExtractor) -> None:
    m = MessageEvent(op="message", id="m1", at=AT, speaker="lin", text="我上周五离开了京东，目前在美团上班")
    got = {e["op"]: e for e in ex.extract(m)}
    assert got["revoke"]["effective"].startswith("2026-02-27") and "valid_from" not in got["set"]


@pytest.mark.parametrize("text, want", [
    ("我搬到杭州了，暂时住朋友家", None),  # 暂时 bounds the stay with a friend, not the move
    ("暂时先这样吧，我已经搬到杭州了", None),  # a closer, not a bound
    ("暂时，我住在杭州", "candidate"),  # the word alone, for the clause after it
])
def test_a_temporary_word_in_another_clause(ex: RuleExtractor, text: str, want: str | None) -> None:
    m = MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text)
    got = [e for e in ex.extract(m) if e["op"] == "set" and e["topic"] == "home_city"]
    assert len(got) == 1 and got[0].get("status") == want


@pytest.mark.parametrize("text, want", [
    ("还在百度呢，没跳槽", [("set", "employer", "百度")]),
    ("入职京东三年了", [("set", "employer", "京东")]),
    ("还在路上呢，工作的事回头说", []),  # not a company
    ("我还在杭州，工作挺忙", []),  # a city
    ("还在开会呢", []),  # no job context
    ("出差到周三，下周一回公司", []),  # a day is no place
])
def test_still_at_and_days(ex: RuleExtractor, text: str, want: list[tuple[str, str, str | None]]) -> None:
    assert events(ex, text) == want


def test_a_plan_day_long_past_is_next_years() -> None:
    from graphmem.extract.zh_dates import find_dates
    december = datetime(2025, 12, 20, tzinfo=timezone.utc)
    assert [d.start.year for d in find_dates("1月4号去新公司报到", december)] == [2026]
    assert [d.start.year for d in find_dates("1月4号入职了", december)] == [2025]  # done: this year's


@pytest.mark.parametrize("text, about, want", [
    ("工位临时在3号楼前台，月底前回去", None, [("set", "office", "3号楼前台")]),
    ("这周借用502会议室办公", None, [("set", "office", "502会议室")]),
    ("生产 7001 / 测试 17001，别搞混", "svc", [("set", "port", "7001"), ("set", "port", "17001")]),
    ("生产 3 台 / 测试 2 台", "svc", []),  # counts, not ports
    ("测试环境有 8 台机器，生产 20 台", "svc", []),
])
def test_offices_and_port_lists(ex: RuleExtractor, text: str, about: str | None,
                                want: list[tuple[str, str, str | None]]) -> None:
    assert events(ex, text, about) == want


@pytest.mark.parametrize("text, want", [
    ("吃蟹会过敏", [("set", "allergy", "蟹")]),
    ("我花生过敏", [("set", "allergy", "花生")]),
    ("我有点过敏，最近换季", []),  # no allergen
    ("出差去青岛，住在希尔顿", [("set", "trip_city", "青岛"), ("set", "trip_lodging", "希尔顿")]),
    ("我家在长沙", [("set", "home_city", "长沙")]),
    ("搬家到了宁波", [("set", "home_city", "宁波")]),
    ("我是京东的员工", [("set", "employer", "京东")]),
    ("我是他的助理", []),  # a person, not an employer
    ("明天飞重庆", [("set", "trip_city", "重庆")]),
    ("我想飞重庆", []),  # a wish
])
def test_more_phrasings(ex: RuleExtractor, text: str, want: list[tuple[str, str, str | None]]) -> None:
    assert events(ex, text) == want


def test_a_weekday_after_next_week_is_next_weeks(ex: RuleExtractor) -> None:
    m = MessageEvent(op="message", id="m1", at=AT, speaker="lin", text="我下周出差去广州，周四回")
    e = next(e for e in ex.extract(m) if e["op"] == "set")
    assert (e["valid_from"][:10], e["valid_to"][:10]) == ("2026-03-09", "2026-03-13")


@pytest.mark.parametrize("text", [
    "小李搬去深圳了",  # hearsay about someone named 小X
    "老王在腾讯上班",
    "张总下周去上海出差",  # a title
    "强哥在腾讯上班",
    "哪天我也搬到大理去",  # someday
    "下辈子住在三亚",
    "上次去北京出差住的全季",  # a past trip
])
def test_someone_else_someday_and_last_time(ex: RuleExtractor, text: str) -> None:
    assert events(ex, text) == []


@pytest.mark.parametrize("text, want", [
    ("小李，我搬到深圳了", [("set", "home_city", "深圳")]),  # addressing 小李; the 我 after it speaks
    ("老实说我在腾讯上班", [("set", "employer", "腾讯")]),  # 老实 is no 老X
    ("周五去上海出差", [("set", "trip_city", "上海")]),  # 周五 is no 周X
    ("我搬到大理去了", [("set", "home_city", "大理")]),
])
def test_not_someone_else(ex: RuleExtractor, text: str, want: list[tuple[str, str, str | None]]) -> None:
    assert events(ex, text) == want


@pytest.mark.parametrize("text, want", [
    ("现在住在杭州滨江", [("set", "home_city", "杭州")]),  # a known city, then a district
    ("我下个月搬到上海浦东", [("set", "home_city", "上海")]),
    ("我住在石家庄", [("set", "home_city", "石家庄")]),  # a known city with 家 in its name
    ("我在北京的一家外企上班", []),  # a description, no name
    ("端口是8080吗还是8081", []),  # a question without a question mark at the end
])
def test_value_edges(ex: RuleExtractor, text: str, want: list[tuple[str, str, str | None]]) -> None:
    assert events(ex, text, "svc" if "端口" in text else None) == want
