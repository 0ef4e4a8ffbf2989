"""Working memory: what a review found and the rules that mend it — erase reaches an agent's claims
about the subject, the checkpoints that name it, and keeps what an erased summary replaced
replaced; a context read never opens a session nor half-succeeds on a closed one; a short answer to
the agent's question is kept by the end gate; a standing second address is no destination gap."""

from __future__ import annotations

import json

import pytest

from graphmem.core.errors import NotFoundError, SessionClosedError

TURN = ("We went through the migration of the billing service step by step: freeze writes, snapshot "
        "the database, copy it over, replay the tail of the log, switch the traffic and watch the errors. ")
TASK = "where should I send lin's package on Oct 5?"


def _head(store) -> int:
    rows = store.events_page(after=0, limit=100_000)
    return rows[-1]["seq"] if rows else 0


def _ledger_text(store) -> str:
    return " ".join(e["payload"] for e in store.events())


def test_erase_reaches_claims_about_the_subject_and_checkpoints_that_name_it(store):
    w = store.working("pkg")
    w.add("Deliver to the seaside hotel.", type="decision", id="d-lin", author="agent",
          claim={"subject": "lin", "topic": "delivery_address", "value": "Seaside Hotel"})
    w.add("The parcel goes to whoever signs.", type="hypothesis", id="h-val", author="agent",
          claim={"subject": "parcel-7", "topic": "recipient", "value": "lin"})
    w.add("Mei wants it at the office.", type="decision", id="d-mei", author="agent",
          claim={"subject": "mei", "topic": "delivery_address", "value": "Office Tower"})
    w.add("lookup done", type="tool_result", id="cal", source="calendar-1")
    w.checkpoint({"step": 1, "note": "asked mei"}, id="1")
    w.checkpoint({"step": 2, "waiting_for": "Lin's answer"}, id="2")  # names the subject, any case
    w.checkpoint({"step": 3, "people": {"lin": "asked"}}, id="3")  # as a key
    other = store.working("linen")
    other.checkpoint({"step": 1, "fabric": "linen", "who": "mei"})  # "lin" inside a word: not named
    store.erase(subject="lin", reason="asked to be forgotten")

    left = {i.id for i in w.items(include_evicted=True)}
    assert left == {"d-mei", "cal"}
    got = w.resume()
    assert got.state == {"step": 1, "note": "asked mei"} and got.checkpoints == 1  # the latest that names no one erased
    assert other.resume().state == {"step": 1, "fabric": "linen", "who": "mei"}
    text = _ledger_text(store)
    assert "Seaside Hotel" not in text and "whoever signs" not in text and "Lin's answer" not in text
    assert "Office Tower" in text
    report = store.verify()
    assert report["chain_ok"] and report["projection_ok"]

    # a checkpoint citing an erased source goes with it (and the tool result whose source it is)
    w.checkpoint({"step": 4, "evidence": ["calendar-1"]}, id="4")
    store.erase(source="calendar-1", reason="wrong calendar")
    assert w.resume().state == {"step": 1, "note": "asked mei"}
    assert "cal" not in {i.id for i in w.items(include_evicted=True)}


def test_erasing_a_summary_keeps_what_it_replaced_replaced(store):
    w = store.working("mix", budget_tokens=300, strategy="compress")
    for i in range(3):
        w.add(f"Bob turn {i}. " + TURN, id=f"b{i}", author="bob")
    for i in range(4):
        w.add(f"Mei turn {i}. " + TURN, id=f"m{i}", author="mei")
    w.add("bob: short closing remark", id="b-last", author="bob")
    before = {i.id: i for i in w.items(include_evicted=True)}
    live_before = {k for k, i in before.items() if i.evicted_at is None}
    live_summaries = [i for i in before.values() if i.type == "summary" and i.evicted_at is None]
    assert live_summaries and any(c.startswith("m") for c in live_summaries[-1].covers), "set-up: a summary quotes mei"
    assert any(c.startswith("b") for s in live_summaries for c in s.covers), "set-up: it replaced bob's turns too"

    out = store.erase(subject="mei", reason="asked")
    after = {i.id: i for i in w.items(include_evicted=True)}
    live_after = {k for k, i in after.items() if i.evicted_at is None}
    assert not any(i.author == "mei" for i in after.values())
    assert not any(i.type == "summary" and any(c.startswith("m") for c in i.covers) for i in after.values())
    # nothing the erased summary had replaced comes back: the live set only shrinks
    assert live_after <= live_before and "b-last" in live_after
    assert sum(i.tokens for i in after.values() if i.evicted_at is None) <= 300
    kept_out = [i for i in after.values() if i.evict_reason == "summary erased"]
    assert kept_out and out["working_evicted"] == len(kept_out)
    # the rule is in the ledger, so a replay gives the same working set
    store.rebuild()
    assert {i.id for i in w.items()} == live_after
    report = store.verify()
    assert report["chain_ok"] and report["projection_ok"]
    assert "Mei turn" not in _ledger_text(store)
    # the session goes on under its budget
    r = w.add("Bob turn 9. " + TURN, id="b9", author="bob")
    assert r.used_tokens <= 300


def test_context_never_opens_a_session_and_never_half_succeeds_on_a_closed_one(store):
    from graphmem.working.working_store import record

    head = _head(store)
    with pytest.raises(NotFoundError):
        store.working("never-started").context("anything to do?")
    assert _head(store) == head and store.working_sessions() == []
    assert store.working("never-started").resume().status == "new"

    w = store.working("done")
    w.add("I moved to Hewan Rd on Sep 20.", id="u1", role="user", author="lin")
    ok = w.context("where does lin live?", budget_tokens=500)
    assert [x.id for x in ok.working] == ["u1"]
    w.close("success", task="move")
    head = _head(store)
    with pytest.raises(SessionClosedError):  # refused before reading: nothing read, nothing written
        w.context("where does lin live?")
    assert _head(store) == head
    # the plain read of a closed session still works and records nothing
    ctx = store.context("where does lin live?", session="done", budget_tokens=500)
    assert [x.id for x in ctx.working] == ["u1"] and _head(store) == head
    # a close landing between a read and its record: the record is skipped, not an error
    assert store._run(record(store.tenant, "done", "context", {"used_tokens": 1}, store._clock(), "owner",
                             only_open=True)) is None
    assert _head(store) == head
    s = store.stats(since="2000-01-01")
    assert s.contexts == 1 and s.working_sessions_open == 0


def test_a_short_answer_to_the_agents_question_is_kept_and_a_lone_word_is_not(store):
    w = store.working("ask")
    w.add("Paris", id="u0", role="user", author="lin")  # answers nothing: noise
    w.add("Which city is the conference in?", id="a1", role="agent", author="agent")
    w.add("Paris", id="u1", role="user", author="lin")  # the answer
    w.add("Shall I book the train?", id="a2", role="agent", author="agent")
    w.add("ok", id="u2", role="user", author="lin")  # an acknowledgement stays noise
    w.add("巴黎", id="u3", role="user", author="lin")
    report = w.close("success", task="conference")
    stated = {x["item"] for x in report.stated}
    dropped = {d["item"]: d["reason"] for d in report.dropped}
    assert "u1" in stated and "u3" in stated
    assert dropped["u0"] == "noise" and dropped["u2"] == "noise"
    messages = {json.loads(e["payload"]).get("id"): json.loads(e["payload"]) for e in store.events()
                if e["op"] == "message"}
    assert messages["ask/u1"]["text"] == "Paris" and messages["ask/u1"]["speaker"] == "lin"


def test_a_standing_office_is_no_destination_gap_and_a_trip_is(store):
    store.set("lin", "home_address", "河湾路", valid_from="2026-09-20")
    store.set("lin", "office", "Tower B", valid_from="2026-01-01")

    def gaps():
        ctx = store.context(TASK, valid_at="2026-10-05")
        return [g for g in ctx.gaps if g.need == "destination" and g.subject == "lin"]
    assert gaps() == []
    store.set("lin", "trip_lodging", "海星酒店", valid_from="2026-10-03", valid_to="2026-10-08")
    found = gaps()
    assert len(found) == 1 and found[0].kind == "competing"
    assert {o["topic"] for o in found[0].options} == {"home_address", "trip_lodging"}
    # an office alone answers; an office bounded in time (a secondment) competes like a trip
    store.set("kai", "office", "Tower C", valid_from="2026-01-01")
    assert [g for g in store.context("where should I send kai's package on Oct 5?", valid_at="2026-10-05").gaps
            if g.need == "destination"] == []
    store.set("kai", "home_address", "Elm St 3", valid_from="2025-01-01")
    store.set("kai", "office", "Harbour Lab", valid_from="2026-10-01", valid_to="2026-10-20")
    kai = [g for g in store.context("where should I send kai's package on Oct 5?", valid_at="2026-10-05").gaps
           if g.need == "destination"]
    assert len(kai) == 1 and kai[0].kind == "competing"
    assert {(o["topic"], o["value"]) for o in kai[0].options} == {("home_address", "Elm St 3"),
                                                                   ("office", "Harbour Lab")}
