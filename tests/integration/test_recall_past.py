"""Issue #44: past-tense and dated questions, staleness at the question's time, the compact prompt
block and its budget, gap questions in the user's words — against Neo4j, on a tenant told its
story in messages the extractor reads (Maya: Acme, then Globex from April 1 2026; Qinghe Rd, Hewan Rd
from Feb 24 2026, Lake St from June 10 2026)."""

from __future__ import annotations

import json
import re
import uuid
from datetime import datetime, timedelta, timezone

import pytest

from graphmem import GraphMem, examples
from graphmem.recall.budget import count_tokens
from graphmem.recall.context_text import header
from tests.left_out_reasons import assert_true_reasons

NOW = datetime(2026, 12, 4, 13, 36, 29, tzinfo=timezone.utc)
MAYA = [("m1", "2025-05-02T10:00:00Z", "I work at Acme Corp."),
        ("m2", "2025-05-02T10:01:00Z", "I live on Qinghe Rd."),
        ("m3", "2026-02-25T09:00:00Z", "I moved to Hewan Rd on Feb 24."),
        ("m4", "2026-04-01T09:00:00Z", "I started working at Globex today."),
        ("m5", "2026-06-10T09:00:00Z", "I moved to Lake St.")]
ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")


@pytest.fixture(scope="module")
def maya(neo4j_target):
    import neo4j

    driver = neo4j.GraphDatabase.driver(neo4j_target.settings.uri, auth=neo4j_target.settings.auth,
                                        notifications_min_severity="OFF")
    mem = GraphMem(neo4j_target.settings, tenant=f"test-{uuid.uuid4().hex[:10]}", driver=driver, clock=lambda: NOW)
    for mid, at, text in MAYA:
        mem.ingest(text, id=mid, speaker="maya", at=at)
    assert [h for h in mem.history_values("maya", "employer")] == ["Acme Corp", "Globex"], "the extractor drew the story"
    yield mem
    mem.drop_tenant()
    driver.close()


def _facts(ctx, topic):
    return [i for i in ctx.items if i.kind == "fact" and i.topic == topic and i.subject == "maya"]


@pytest.mark.parametrize("task,topic,value", [
    ("Where did Maya work in March 2026?", "employer", "Acme Corp"),
    ("Where did Maya work last year?", "employer", "Acme Corp"),
    ("Where did Maya live on February 20, 2026?", "home_address", "Qinghe Rd"),
    ("Where did Maya live back in May?", "home_address", "Hewan Rd"),
    ("Where was Maya living two weeks ago?", "home_address", "Lake St"),
    ("玛雅去年住在哪里？", "home_address", "Qinghe Rd"),
    ("三月份的时候maya在哪里工作？", "employer", "Acme Corp"),
])
def test_a_dated_question_is_answered_at_its_time(maya, task, value, topic):
    ctx = maya.context(task)
    assert ctx.valid_at < NOW and ctx.named_range is not None
    assert [i.value for i in _facts(ctx, topic)] == [value], ctx.text
    # the header says which time the facts are about, in words a model reads
    assert "facts as of" in ctx.text.split("\n")[0]


def test_the_answer_that_no_longer_holds_says_what_holds_now(maya):
    ctx = maya.context("Where did Maya work in March 2026?")
    acme = _facts(ctx, "employer")[0]
    assert any("now: Globex" in w.message for w in acme.warnings), acme.warnings
    assert not _facts(ctx, "employer")[1:]  # Globex is not the answer about March


def test_a_past_tense_question_without_a_date_reaches_history(maya):
    ctx = maya.context("Where did Maya work?")
    hist = [i for i in ctx.items if i.kind == "history" and i.topic == "employer"]
    assert [i.value for i in hist] == ["Acme Corp"] and "now: Globex" in hist[0].warnings[0].message
    assert [i.value for i in _facts(ctx, "employer")] == ["Globex"]  # current stays current
    assert not [i for i in maya.context("Where does Maya work?").items if i.kind == "history"]


def test_a_statement_about_a_later_time_is_not_yet_valid_not_superseded(maya):
    ctx = maya.context("Where did Maya live on February 20, 2026?")
    m3 = [i for i in ctx.items if i.source and i.source.id == "m3"]
    assert m3, ctx.text
    kinds = {w.kind: w.message for w in m3[0].warnings}
    assert "not_yet_valid" in kinds and "superseded" not in kinds
    assert "not yet valid at 2026-02-20" in kinds["not_yet_valid"] and "now: nothing" not in ctx.text


def test_staleness_is_measured_at_the_time_asked_about(maya):
    # Globex was stated 2026-04-01: fresh for a question about May 2026, stale for one about today
    then = maya.context("Maya employer", valid_at="2026-05-01")
    globex = _facts(then, "employer")
    assert [i.value for i in globex] == ["Globex"] and not [w for w in globex[0].warnings if w.kind == "stale"]
    now = maya.context("Maya employer")
    stale = [w for w in _facts(now, "employer")[0].warnings if w.kind == "stale"]
    assert stale and "247 days before this context" in stale[0].message
    # a question whose words name the past is measured there too
    worded = maya.context("Where did Maya work in May 2026?")
    assert not [w for w in _facts(worded, "employer")[0].warnings if w.kind == "stale"]


def test_a_plain_fact_is_one_line_in_plain_words(maya):
    ctx = maya.context("Where does Maya live?", budget_tokens=5000)
    line = next(x for x in ctx.text.split("\n") if x.startswith("- maya home address"))
    assert line == '- maya home address = "Lake St" · since 2026-06-10 · maya m5'
    for internal in ("L1", "confirmed", "ledger v", "home_address"):
        assert internal not in ctx.text.split("### What was said")[0], internal
    assert count_tokens(header(ctx)) <= 32 and count_tokens("\n" + line) <= 30


@pytest.mark.parametrize("budget", [64, 100, 200])
def test_small_budgets_work_and_say_truly_what_was_left_out(maya, budget):
    ctx = maya.context("Where does Maya live and work?", budget_tokens=budget)
    assert ctx.used_tokens <= budget and count_tokens(ctx.text) == ctx.used_tokens
    assert [i for i in ctx.items if i.kind == "fact"], ctx.text  # at least one fact, even at the minimum
    assert ctx.left_out and ctx.left_out[0].reason.startswith("budget: needs")
    assert_true_reasons(ctx.left_out)


def test_the_minimum_budget_is_checked_before_any_read(maya):
    from graphmem.core.errors import ValidationError

    with pytest.raises(ValidationError, match="at least 64"):
        maya.context("Where does Maya live?", budget_tokens=63)


@pytest.fixture
def lin(neo4j_target, driver):
    mem = GraphMem(neo4j_target.settings, tenant=f"test-{uuid.uuid4().hex[:10]}", driver=driver,
                   clock=lambda: datetime(2026, 10, 6, 9, tzinfo=timezone.utc))
    scenario = next(s for s in json.loads(examples.path("scenarios.json").read_text())
                    if s["id"] == "address-move-trip-quote")
    mem.apply_many(scenario["events"])
    yield mem
    mem.drop_tenant()


@pytest.mark.parametrize("budget", [150, 200, 300, 400, 1500])
def test_a_gap_never_crowds_out_the_facts_it_is_about(lin, budget):
    ctx = lin.context("where should I send lin's package on Oct 5?", budget_tokens=budget)
    shown = {(i.subject, i.topic) for i in ctx.items}
    for g in ctx.gaps:
        assert all((g.subject, o["topic"]) in shown for o in g.options), (budget, ctx.text)
    if budget >= 400:
        assert ctx.gaps and [i for i in ctx.items if i.kind == "fact"]


def test_gap_questions_are_in_the_users_words(lin, maya):
    ctx = lin.context("where should I send lin's package on Oct 5?")
    (gap,) = [g for g in ctx.gaps if g.need == "destination"]
    assert "河湾路" in gap.question and "海星酒店" in gap.question and "on 2026-10-05" in gap.question
    assert not ISO.search(gap.question) and "trip_lodging" not in gap.question and "home_address" not in gap.question
    missing = maya.context("Where did Maya live in 2024?")
    assert [g.question for g in missing.gaps] == ["What was Maya's home address in 2024?"]


def test_no_gap_asks_for_what_the_user_already_said(maya):
    # "live" names the home address and the home city; the address is known, so the city is not asked for
    ctx = maya.context("Where did Maya live on February 20, 2026?")
    assert ctx.gaps == [], [g.question for g in ctx.gaps]
