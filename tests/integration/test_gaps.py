"""context() in the agent's loop: gaps to ask about, working memory first, failed legs degrade."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone

import pytest

from graphmem import GraphMem, examples
from graphmem.core.errors import QueryError

TASK = "where should I send lin's package on Oct 5?"
HOME, HOTEL = "河湾路", "海星酒店"


def _lin(store: GraphMem) -> None:
    scenario = next(s for s in json.loads(examples.path("scenarios.json").read_text())
                    if s["id"] == "address-move-trip-quote")
    store.apply_many(scenario["events"])


@pytest.fixture
def lin(neo4j_target, driver):
    mem = GraphMem(neo4j_target.settings, tenant=f"test-{uuid.uuid4().hex[:10]}", driver=driver,
                   clock=lambda: datetime(2026, 10, 6, 9, tzinfo=timezone.utc))
    _lin(mem)
    yield mem
    mem.drop_tenant()


def _destination(ctx):
    return [g for g in ctx.gaps if g.need == "destination" and g.subject == "lin"]


@pytest.mark.parametrize("kw", [{"valid_at": "2026-10-05"}, {}, {"subject": "lin", "valid_at": "2026-10-05"}])
def test_lins_package_destination_is_a_gap_not_a_ranked_answer(lin, kw):
    ctx = lin.context(TASK, budget_tokens=1500, **kw)
    gaps = _destination(ctx)
    assert len(gaps) == 1, ctx.text
    gap = gaps[0]
    assert gap.kind == "competing"
    assert {(o["topic"], o["value"]) for o in gap.options} == {("home_address", HOME), ("trip_lodging", HOTEL)}
    assert gap.at == datetime(2026, 10, 5, tzinfo=timezone.utc)
    assert "ask" in ctx.text and "Gaps" in ctx.text
    # neither option is ranked above the other, and both say so
    shown = {i.topic: i for i in ctx.items if i.subject == "lin" and i.kind == "fact"
             and i.topic in ("home_address", "trip_lodging")}
    assert len(shown) == 2, ctx.text
    assert shown["home_address"].score == shown["trip_lodging"].score
    assert all(any(w.kind == "gap" for w in i.warnings) for i in shown.values())


def test_no_gap_once_a_delivery_address_is_given(lin):
    lin.set("lin", "delivery_address", "前台代收", valid_from="2026-10-01", source=None)
    ctx = lin.context(TASK, valid_at="2026-10-05")
    assert _destination(ctx) == []


def test_missing_and_expiring_gaps(lin):
    ctx = lin.context("send mei's parcel", subject="mei")
    assert [g.kind for g in _gaps(ctx, "mei")] == ["missing"]
    ctx = lin.context("what is lin's trip_lodging on Oct 5?", valid_at="2026-10-05")
    assert [g for g in ctx.gaps if g.subject == "lin"] == []  # it holds all that day: decisive
    ctx = lin.context("what is lin's trip_lodging on Oct 7?", valid_at="2026-10-07T12:00:00Z")
    assert ("trip_lodging", "expiring") in [(g.need, g.kind) for g in ctx.gaps if g.subject == "lin"]
    lin.set("lin", "diet", "vegetarian", expires_at="2026-10-07")  # the store will stop trusting it soon
    ctx = lin.context("what is lin's diet?", subject="lin")
    assert [(g.need, g.kind) for g in ctx.gaps] == [("diet", "expiring")]
    ctx = lin.context("what is lin's home_address?", valid_at="2026-10-05")
    assert [g for g in ctx.gaps if g.subject == "lin"] == []


def _gaps(ctx, subject):
    return [g for g in ctx.gaps if g.subject == subject]


def test_conflict_gap(store):
    store.add_source("a", kind="message", at="2026-09-01", author="ann", text="lin's office is at Pier 1")
    store.add_source("b", kind="message", at="2026-09-01", author="bo", text="lin's office is at Dock 9")
    store.set("lin", "office", "Pier 1", source="a")
    store.set("lin", "office", "Dock 9", source="b")
    ctx = store.context("what is lin's office?", subject="lin")
    assert [(g.need, g.kind) for g in ctx.gaps] == [("office", "conflict")]


def test_working_memory_comes_first_within_the_same_budget(lin):
    w = lin.working("pkg", budget_tokens=500)
    w.add("The user wants the package tracked.", id="u1", author="lin")
    w.add("Asked the courier for a pickup slot.", type="decision", id="d1", author="agent")
    ctx = lin.context(TASK, session="pkg", valid_at="2026-10-05", budget_tokens=1200)
    assert [x.id for x in ctx.working] == ["u1", "d1"]
    text = ctx.text
    assert text.index("Working memory") < text.index("Gaps") < text.index("### Facts")
    assert ctx.used_tokens <= 1200
    small = lin.context(TASK, session="pkg", valid_at="2026-10-05", budget_tokens=200)
    assert small.used_tokens <= 200 and small.working  # working memory is kept before long-term items


class Boom:
    name, dimensions = "boom", 8

    def embed(self, texts):
        raise RuntimeError("embedder is down")


def test_failed_legs_degrade_with_a_warning(lin, monkeypatch):
    lin.playbooks.draft_card("address", recommended_steps=["ask lin"])  # the playbook leg runs only for a
    # tenant that has playbooks
    mem = GraphMem(lin.settings, tenant=lin.tenant, driver=lin._driver, install_schema=False, embedder=Boom(),
                   clock=lin._clock)
    from graphmem.playbooks import playbooks
    from graphmem.recall import summaries

    def broken_applicable(tenant, area):
        raise QueryError("playbooks are down", query="playbook/applicable")
        yield

    def broken_summary(*a, **k):
        raise QueryError("summaries are down", query="summary/get")
        yield
    monkeypatch.setattr(playbooks, "applicable", broken_applicable)
    monkeypatch.setattr(summaries, "summary", broken_summary)
    ctx = mem.context("where does lin live?", subject="lin")
    assert set(ctx.failed_legs) == {"vector", "playbooks", "summaries"}
    assert any(n.startswith("degraded: the vector leg failed") for n in ctx.notes)
    assert any(i.topic == "home_address" for i in ctx.items)  # the read still answers


def test_a_full_working_memory_takes_at_most_half_the_context(lin):
    w = lin.working("long", budget_tokens=4000)
    for i in range(30):
        w.add(f"step {i}: checked the courier options and wrote down what each one costs", id=f"t{i}",
              author="agent")
    ctx = lin.context(TASK, session="long", valid_at="2026-10-05", budget_tokens=1200)
    assert ctx.working and ctx.working[-1].id == "t29"  # the newest kept
    assert ctx.gaps and any(i.kind == "fact" for i in ctx.items)  # long-term memory still has room
    assert any(x.what == "working t0" for x in ctx.left_out)
