"""Properties of the rule extractor (hypothesis): whatever the text, drawn values come from it and
every event is valid; a statement turned into a question, a "you said…", someone else's or a
hypothetical draws nothing."""

from __future__ import annotations

from datetime import datetime, timezone

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.extract.base import _HAN_CHAR, is_text, language_of
from graphmem.extract.personal import RELATION_TOPICS
from graphmem.extract import RuleExtractor
from graphmem.core.models import MessageEvent, parse_event

AT = datetime(2026, 9, 28, 10, tzinfo=timezone.utc)
EX = RuleExtractor()

CITIES = ["Berlin", "Denver", "Lisbon", "Oslo", "Austin", "Kyoto", "Porto", "Leeds"]
STATEMENTS = ["I live in {c}.", "I moved to {c}.", "I'm based in {c}.", "I work at {o}.", "I'm allergic to {a}.",
              "I joined {o}.", "I'm vegetarian.", "I'm on a business trip to {c} until Oct 9."]
ORGS = ["Initech", "Globex Corp", "Acme Robotics", "Hooli", "Umbrella Corp"]
ALLERGENS = ["cats", "peanuts", "latex", "pollen", "shellfish"]
TRAPS = ["You said {s}", "Did you say {s}", "My wife said she {t}", "I might say {s}", "If {s}",
         "{q}?", "Maybe {s}", "You mentioned {s}"]


def msg(text):
    return MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc", "Co", "Cn")), min_size=1, max_size=120))
def test_values_come_from_the_text_and_events_are_valid(text):
    for e in EX.extract(msg(text)):
        if e["op"] == "set":
            assert e["value"] in text
        parse_event(e if e["op"] == "source" else {**e, "source": e.get("source", "m1")})


statement = st.builds(lambda tpl, c, o, a: tpl.format(c=c, o=o, a=a), st.sampled_from(STATEMENTS),
                      st.sampled_from(CITIES), st.sampled_from(ORGS), st.sampled_from(ALLERGENS))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(statement)
def test_a_statement_draws_a_fact_about_the_speaker(s):
    events = [e for e in EX.extract(msg(s)) if e["op"] == "set"]
    assert events and all(e["subject"] == "lin" and e["value"] in s for e in events)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(statement, st.sampled_from(TRAPS))
def test_the_same_statement_inside_a_trap_draws_nothing(s, trap):
    body = s[0].lower() + s[1:] if not s.startswith("I") else s
    third = body.replace("I'm ", "is ").replace("I ", "").rstrip(".")
    text = trap.format(s=body.rstrip(".") + ".", t=third, q=body.rstrip("."))
    drawn = [e for e in EX.extract(msg(text)) if e["op"] in ("set", "revoke") and e["subject"] == "lin"
             and e["topic"] not in RELATION_TOPICS]  # "My wife said…" may tell that lin has a wife, nothing more
    assert drawn == [], (text, drawn)


def _language_by_counting(text):
    cjk = len(_HAN_CHAR.findall(text))
    letters = sum(1 for c in text if c.isalpha())
    return "zh" if letters and cjk / letters >= 0.2 else "en"


def _is_text_by_counting(text):
    import unicodedata
    if not text.strip():
        return False
    control = sum(1 for c in text if unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") and c not in "\n\r\t")
    return control / len(text) < 0.1


@settings(max_examples=400, deadline=None)
@given(st.text(st.one_of(st.characters(), st.sampled_from(list("ab 河湾路\n\t\x00\x07\ue000\u0378\xa0\u200b"))),
               max_size=60))
def test_the_shortcuts_of_language_of_and_is_text_give_what_counting_gives(text):
    assert language_of(text) == _language_by_counting(text)
    assert is_text(text) == _is_text_by_counting(text)
