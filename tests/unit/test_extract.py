"""The rule extractor, per rule family, in English and Chinese. No database: text in, events out."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.core.errors import ValidationError
from graphmem.extract import PriorFact
from graphmem.core.models import MessageEvent, parse_event

AT = datetime(2026, 9, 28, 10, tzinfo=timezone.utc)



def msg(text, speaker="lin", about=None, session=None, at=AT, id="m1"):
    return MessageEvent(op="message", id=id, at=at, speaker=speaker, text=text, about=about, session=session)


def sets(events):
    return {(e["topic"], e["value"]) for e in events if e["op"] == "set"}


def one(events, op="set"):
    found = [e for e in events if e["op"] == op]
    assert len(found) == 1, events
    return found[0]


def prior(uid, topic, value, vf="2026-03-01", subject="lin", env=None, seq=1, vt=None):
    return PriorFact(uid=uid, subject=subject, topic=topic, env=env, value=value,
                     valid_from=datetime.fromisoformat(vf).replace(tzinfo=timezone.utc),
                     valid_to=datetime.fromisoformat(vt).replace(tzinfo=timezone.utc) if vt else None,
                     author=subject, seq=seq)


# -- plain statements and subjects -------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("I live on Maple Street.", {("home_address", "Maple Street")}),
    ("I'm living in Berlin now.", {("home_city", "Berlin")}),
    ("I work at Acme Corp.", {("employer", "Acme Corp")}),
    ("I'm allergic to peanuts.", {("allergy", "peanuts")}),
    ("I'm vegan.", {("diet", "vegan")}),
    ("Please reply in English.", {("reply_language", "English")}),
    ("我常住青禾路。", {("home_address", "青禾路")}),
    ("我搬到了杭州。", {("home_city", "杭州")}),
    ("我对花生过敏。", {("allergy", "花生")}),
    ("以后用中文回复我。", {("reply_language", "中文")}),
    ("我在星辰科技工作。", {("employer", "星辰科技")}),
])
def test_plain_statements(ex, text, expected):
    events = ex.extract(msg(text))
    assert sets(events) == expected
    assert all(e["subject"] == "lin" and e["source"] == "m1" for e in events)


def test_a_thing_under_discussion_is_the_subject(ex):
    e = one(ex.extract(msg("Change the port to 9000.", speaker="ops", about="deploy")))
    assert (e["subject"], e["topic"], e["value"]) == ("deploy", "port", "9000")


def test_a_named_person_is_the_subject(ex):
    e = one(ex.extract(msg("Dana sits in B5.", speaker="hr")))
    assert (e["subject"], e["topic"], e["value"]) == ("dana", "office", "B5")


def test_values_are_always_in_the_text(ex):
    for text in ["内网部署，端口8000。", "Deploy on the private network, port 8000.", "我是素食者。"]:
        for e in ex.extract(msg(text, about="svc")):
            if e["op"] == "set":
                assert e["value"] in text


def test_evidence_keeps_the_span_and_confidence(ex):
    text = "Hi there. I live on Maple Street."
    e = one(ex.extract(msg(text)))
    span = e["evidence"].split("]")[0][1:]
    a, b = map(int, span.split(":"))
    assert text[a:b] == "Maple Street" and e["confidence"] >= 0.8


# -- time --------------------------------------------------------------------------------------

def test_absolute_date_without_year_takes_the_messages_year(ex):
    e = one(ex.extract(msg("I moved to Suzhou on March 1.", at=datetime(2026, 3, 10, tzinfo=timezone.utc))))
    assert e["valid_from"].startswith("2026-03-01")


def test_since_today_is_relative_to_the_message(ex):
    e = one(ex.extract(msg("Pescatarian since today.")))
    assert e["valid_from"].startswith("2026-09-28T00:00")


def test_chinese_from_date(ex):
    e = one(ex.extract(msg("我9月20日起搬到河湾路。")))
    assert e["valid_from"].startswith("2026-09-20") and "valid_to" not in e


@pytest.mark.parametrize("text", ["10月3日至7日去海城出差，住海星酒店。",
                                  "From Oct 3-7 I'm on a business trip to Haicheng, staying at the Seastar Hotel."])
def test_ranges_include_their_last_day(ex, text):
    events = ex.extract(msg(text))
    assert {e["topic"] for e in events} == {"trip_city", "trip_lodging"}
    for e in events:
        assert e["valid_from"].startswith("2026-10-03") and e["valid_to"].startswith("2026-10-08")


def test_until_a_day_includes_it(ex):
    e = one(ex.extract(msg("测试环境暂时用9000，到11月9日。", about="svc", at=datetime(2026, 11, 2, 10, tzinfo=timezone.utc))))
    assert (e["env"], e["value"]) == ("test", "9000") and e["valid_to"].startswith("2026-11-10")


def test_relative_chinese_date(ex):
    e = one(ex.extract(msg("我明天起住在苏州。")))
    assert e["valid_from"].startswith("2026-09-29")


# -- environments and sessions -----------------------------------------------------------------

@pytest.mark.parametrize("text, env", [("The staging port is 8443.", "staging"), ("Production serves on 8000.", "prod"),
                                       ("生产环境端口是8000。", "prod"), ("测试环境端口改成9001。", "test")])
def test_environment_words(ex, text, env):
    e = one(ex.extract(msg(text, about="svc")))
    assert e["env"] == env and e["topic"] == "port"


def test_one_off_request_is_l0_for_the_session(ex):
    e = one(ex.extract(msg("这次报告用英文。", session="task-7")))
    assert (e["topic"], e["authority"], e["session"]) == ("report_language", "L0", "task-7")
    e = one(ex.extract(msg("This time, write the report in French.", session="task-8")))
    assert (e["value"], e["authority"], e["session"]) == ("French", "L0", "task-8")


def test_standing_preference_is_l1(ex):
    e = one(ex.extract(msg("From now on, reply in English.", session="task-9")))
    assert e["authority"] == "L1" and "session" not in e


# -- revocations, corrections, cancellations ---------------------------------------------------

@pytest.mark.parametrize("text, topic", [("The deploy is withdrawn, drop the port.", "port"),
                                         ("I'm no longer vegetarian.", "diet"),
                                         ("我不再吃素了。", "diet"), ("撤回端口设置。", "port")])
def test_revocations(ex, text, topic):
    e = one(ex.extract(msg(text, about="deploy")), op="revoke")
    assert e["topic"] == topic


def test_revoking_one_value_of_a_many_valued_topic(ex):
    e = one(ex.extract(msg("I'm not allergic to shellfish anymore.")), op="revoke")
    assert (e["topic"], e["value"]) == ("allergy", "shellfish")


def test_correction_with_a_value_retracts_and_replaces(ex):
    ctx = [prior("f7", "port", "8000", subject="deploy", seq=7)]
    events = ex.extract(msg("Sorry, it was port 8080.", speaker="ops", about="deploy"), ctx)
    assert one(events, "retract")["fact"] == "f7"
    e = one(events)
    assert (e["value"], e["valid_from"][:10]) == ("8080", "2026-03-01")


def test_correction_with_only_a_date_re_dates(ex):
    ctx = [prior("f2", "home_city", "Suzhou", "2026-03-01", subject="zhou", seq=2),
           prior("f1", "home_city", "Shanghai", "2026-01-01", subject="zhou", seq=1)]
    events = ex.extract(msg("Sorry, the move was on Feb 25.", speaker="zhou"), ctx)
    assert one(events, "retract")["fact"] == "f2"
    e = one(events)
    assert (e["value"], e["valid_from"][:10]) == ("Suzhou", "2026-02-25")
    zh = ex.extract(msg("不对，是2月25日搬的。", speaker="zhou"), ctx)
    assert one(zh, "retract")["fact"] == "f2" and one(zh)["valid_from"][:10] == "2026-02-25"


def test_actually_with_now_is_a_change_not_a_correction(ex):
    events = ex.extract(msg("Actually I eat fish now, pescatarian since today.", speaker="ravi"),
                        [prior("f1", "diet", "vegetarian", subject="ravi")])
    assert [e["op"] for e in events] == ["set"]


@pytest.mark.parametrize("text", ["The trip is cancelled.", "出差取消了。"])
def test_cancelling_a_plan_retracts_its_facts(ex, text):
    ctx = [prior("f5", "trip_lodging", "海星酒店", "2026-10-03", seq=5, vt="2026-10-08"),
           prior("f4", "trip_city", "海城", "2026-10-03", seq=4, vt="2026-10-08"),
           prior("f1", "home_address", "河湾路", seq=1)]
    events = ex.extract(msg(text), ctx)
    assert sorted(e["fact"] for e in events if e["op"] == "retract") == ["f4", "f5"]
    assert all(e["op"] == "retract" for e in events)


# -- quotes ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, day, value", [
    ("这是9月1日那封邮件，里面写我住青禾路。", "2026-09-01", "青禾路"),
    ("The Sept 1 email says: I live on Qinghe Road.", "2026-09-01", "Qinghe Road"),
    ("Found my note from January 2026, it says: I'm vegan.", "2026-01-01", "vegan"),
])
def test_quotes_are_dated_at_the_quoted_document(ex, text, day, value):
    events = ex.extract(msg(text))
    src, quote = events
    assert src["op"] == "source" and src["at"].startswith(day) and src["id"] == "m1~quoted"
    assert quote["op"] == "quote" and quote["quotes"] == "m1~quoted" and quote["source"] == "m1"
    assert [c["value"] for c in quote["claims"]] == [value]
    assert not any(e["op"] == "set" for e in events)


# -- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "   ", "\x01\x02\x03\x04\x05\x06", "ok " * 10, "混合 scripts ünïcödé 🙂"])
def test_odd_text_draws_nothing_and_does_not_crash(ex, text):
    assert ex.extract(msg(text)) == [] or all(e["op"] in ("set", "revoke") for e in ex.extract(msg(text)))


def test_a_megabyte_is_refused_with_a_typed_error():
    with pytest.raises(ValidationError, match="longer than"):
        parse_event({"op": "message", "id": "m", "at": "2026-01-01", "speaker": "x", "text": "a" * 1_000_000})


def test_every_drawn_event_is_valid(ex):
    for text in ["我9月20日起搬到河湾路。", "Deploy on the private network, port 8000.", "I'm allergic to cats and dogs."]:
        for e in ex.extract(msg(text, about="svc")):
            parse_event(e)
