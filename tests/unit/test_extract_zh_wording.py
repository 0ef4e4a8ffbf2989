"""Chinese wording people use beyond the plain patterns (issue #43): paraphrases, allergies named
in other shapes, endings, and the near-misses each rule must refuse.

The sentences are the tests' own, not the labelled sets'. No database: text in, events out.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.core.models import MessageEvent
from graphmem.extract import PriorFact, RuleExtractor

AT = datetime(2026, 3, 10, 10, tzinfo=timezone.utc)  # a Tuesday



def msg(text: str, about: str | None = None) -> MessageEvent:
    return MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text, about=about)


def facts(ex: RuleExtractor, text: str, about: str | None = None,
          context: tuple[PriorFact, ...] = ()) -> list[tuple[str, str, str | None]]:
    return [(e["op"], e["topic"], e.get("value")) for e in ex.extract(msg(text, about), context)
            if e["op"] in ("set", "revoke")]


@pytest.mark.parametrize("text, topic, value", [
    ("我家新地址是海淀区学院路30号院2栋，快递寄这儿", "home_address", "海淀区学院路30号院2栋"),
    ("新住址：西湖区文三路100号", "home_address", "西湖区文三路100号"),
    ("地址改成徐汇区漕溪北路8号了", "home_address", "徐汇区漕溪北路8号"),
    ("搬来成都两年了，还是吃不惯辣", "home_city", "成都"),
    ("毕业以后就留在厦门了", "home_city", "厦门"),
    ("家住天津，周末常去北京", "home_city", "天津"),
    ("目前在美团打工，写后端的", "employer", "美团"),
    ("我在拼多多干活儿，天天加班", "employer", "拼多多"),
    ("去年入职的网易，感觉还行", "employer", "网易"),
    ("明天去阿里报道，有点紧张", "employer", "阿里"),
    ("工位挪到C座803了", "office", "C座803"),
    ("我是新同事小林，坐12F，多多关照", "office", "12F"),
    ("这个月在深圳分部坐班", "office", "深圳分部"),
    ("我是回族，只吃清真的", "diet", "清真"),
    ("螃蟹我不能吃，过敏", "allergy", "螃蟹"),
    ("我不能碰虾，一碰就过敏", "allergy", "虾"),
    ("狗毛过敏星人路过", "allergy", "狗毛"),
    ("海鲜类的都过敏，别点", "allergy", "海鲜"),
])
def test_paraphrases(ex: RuleExtractor, text: str, topic: str, value: str) -> None:
    assert ("set", topic, value) in facts(ex, text)


def test_two_allergies_before_one_verb(ex: RuleExtractor) -> None:
    got = facts(ex, "我虾和蟹都过敏，吃海鲜得小心")
    assert ("set", "allergy", "虾") in got and ("set", "allergy", "蟹") in got


def test_a_port_started_on_a_number(ex: RuleExtractor) -> None:
    events = ex.extract(msg("order-api 预发环境起在 17070 上", about="order-api"))
    assert [(e["topic"], e["value"], e.get("env")) for e in events if e["op"] == "set"] == [
        ("port", "17070", "staging")]


def test_port_switched_by_a_verb(ex: RuleExtractor) -> None:
    events = ex.extract(msg("生产端口切到 8555", about="order-api"))
    assert [(e["topic"], e["value"]) for e in events if e["op"] == "set"] == [("port", "8555")]


@pytest.mark.parametrize("text, topic, value", [
    ("我对虾已经不过敏了，开心", "allergy", "虾"),
    ("对猫毛不过敏了", "allergy", "猫毛"),
    ("不吃素啦，还是肉香", "diet", None),
    ("已经不是素食者了", "diet", None),
])
def test_endings(ex: RuleExtractor, text: str, topic: str, value: str | None) -> None:
    assert facts(ex, text) == [("revoke", topic, value)]


@pytest.mark.parametrize("text", [
    "我对你的唠叨过敏",                 # a joke about a person, not an allergen
    "我什么都过敏，哈哈",               # no allergen named
    "千万别把端口改成 8080，会冲突",     # a prohibition
    "我可没说要搬去上海啊",             # denied, not stated
    "我现在在那边上班",                 # a place word, no employer
    "我在一个小厂子上班",               # no name
    "去年12月入职的",                   # a date, no employer
    "工位是临时的",                     # an adjective, no office
    "我坐18路公交来的",                 # a bus, not a floor
    "听说小王在字节打工",               # hearsay
    "我老婆在滴滴上班",                 # someone else
    "你是不是搬来杭州了？",             # a question
    "家住哪儿啊你",                     # a question without a city
])
def test_near_misses_draw_nothing(ex: RuleExtractor, text: str) -> None:
    assert [f for f in facts(ex, text) if f[1] in ("home_address", "home_city", "employer", "office", "allergy",
                                                     "diet", "port")] == []


def test_a_greeting_to_the_reader_is_not_someone_else(ex: RuleExtractor) -> None:
    assert ("set", "employer", "中金公司") in facts(ex, "王老师您好：我目前供职于中金公司，想请教一个问题。")


@pytest.mark.parametrize("text, valid_to", [
    ("预发环境先用 7301，周四之后改回去", "2026-03-13"),   # Thursday is the last day
    ("测试环境端口改为 7302，3月20日恢复", "2026-03-20"),   # back to normal on the 20th: not the 20th
    ("测试环境临时用 7303，下周一回滚", "2026-03-16"),
    ("测试环境临时用 7304，下周一切回原来的", "2026-03-16"),  # 原来的 is the old value, not a past state
])
def test_a_day_of_reverting_ends_the_value(ex: RuleExtractor, text: str, valid_to: str) -> None:
    sets = [e for e in ex.extract(msg(text, about="order-api")) if e["op"] == "set"]
    assert [(e["topic"], e["valid_to"][:10], e.get("valid_from")) for e in sets] == [("port", valid_to, None)]


def test_a_past_state_still_draws_nothing(ex: RuleExtractor) -> None:
    assert facts(ex, "我原来住北京") == []


def held(topic: str, value: str) -> PriorFact:
    return PriorFact(uid="f1", subject="lin", topic=topic, env=None, value=value,
                     valid_from=datetime(2026, 3, 1, tzinfo=timezone.utc), valid_to=None, author="lin", seq=1)


@pytest.mark.parametrize("text, old, new", [
    ("刚才说错了，我不是对虾过敏，是对蟹", "虾", "蟹"),
    ("打错字了 是榛子过敏 不是核桃", "核桃", "榛子"),
])
def test_an_allergy_corrected_names_the_new_one(ex: RuleExtractor, text: str, old: str, new: str) -> None:
    events = ex.extract(msg(text), [held("allergy", old)])
    assert [e["op"] for e in events] == ["retract", "set"]
    assert events[1]["value"] == new and events[1]["valid_from"].startswith("2026-03-01")


def test_a_district_is_no_city(ex: RuleExtractor) -> None:
    assert [f for f in facts(ex, "我住在海淀区") if f[1] == "home_city"] == []


def test_running_for_n_days_ends_after_them(ex: RuleExtractor) -> None:
    sets = [e for e in ex.extract(msg("预发环境先改成 17171 跑两天看看", about="order-api")) if e["op"] == "set"]
    assert [(e["value"], e["valid_to"][:10]) for e in sets] == [("17171", "2026-03-12")]


def test_a_hotel_checked_out_cancels_the_stay(ex: RuleExtractor) -> None:
    stay = PriorFact(uid="t1", subject="lin", topic="trip_lodging", env=None, value="如家酒店",
                     valid_from=datetime(2026, 3, 12, tzinfo=timezone.utc), valid_to=None, author="lin", seq=1)
    assert [e["op"] for e in ex.extract(msg("酒店已经退掉了，改住同学家"), [stay])] == ["retract"]


def test_an_address_in_chinese_numerals(ex: RuleExtractor) -> None:
    assert ("set", "home_address", "鼓楼区中山路二〇五号") in facts(ex, "新地址是鼓楼区中山路二〇五号")


@pytest.mark.parametrize("text, day", [("去年11月入职的小红书", "2025-11-01"), ("明年2月搬到苏州", "2027-02-01")])
def test_a_month_of_a_relative_year(ex: RuleExtractor, text: str, day: str) -> None:
    sets = [e for e in ex.extract(msg(text)) if e["op"] == "set"]
    assert [e["valid_from"][:10] for e in sets] == [day]


@pytest.mark.parametrize("text, value", [("新公司是商汤，月底入职", "商汤"), ("新公司是做游戏的", None), ("新东家是外企", None)])
def test_a_new_company_named(ex: RuleExtractor, text: str, value: str | None) -> None:
    got = [f[2] for f in facts(ex, text) if f[1] == "employer"]
    assert got == ([value] if value else [])


@pytest.mark.parametrize("text, value", [("以后日报都出日文版", "日文"), ("月报统一做成繁体版吧", "繁体"),
                                         ("你的报告出英文版吗？", None), ("他们的周报都出英文版", None)])
def test_a_report_issued_in_a_language(ex: RuleExtractor, text: str, value: str | None) -> None:
    got = [f[2] for f in facts(ex, text) if f[1] == "report_language"]
    assert got == ([value] if value else [])
