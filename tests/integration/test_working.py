"""Working memory (graphmem.working.working): budget, strategies, checkpoints, ledger, erase, the end gate."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from graphmem import GraphMem
from graphmem.core.errors import NotFoundError, SensitiveDataError, TenantError, ValidationError

TURN = ("The customer asked about the migration of the billing service to the new cluster, and we went "
        "through the steps one by one: freeze writes, snapshot the database, copy it over, replay the tail "
        "of the log, switch the traffic, and watch the error rate for an hour before we call it done. ")


def _head(store: GraphMem) -> int:
    rows = store.events_page(after=0, limit=100_000)
    return rows[-1]["seq"] if rows else 0


def test_a_2000_token_budget_holds_10000_tokens_of_turns(store):
    from graphmem.recall.budget import count_tokens

    w = store.working("long", budget_tokens=2000, strategy="compress")
    added, warned, total_in = [], [], 0
    i = 0
    while total_in < 10_000:
        text = f"Turn {i}. " + TURN * 2
        total_in += count_tokens(text)
        r = w.add(text, id=f"t{i}", author="lin", importance=0.5)
        added.append(r.item.id)
        assert r.used_tokens <= 2000, f"turn {i}: {r.used_tokens} tokens in a 2000-token session"
        if r.warning:
            warned.append((i, r.used_with_new))
            assert r.used_with_new >= 0.8 * 2000
        assert sum(x.tokens for x in w.items()) == r.used_tokens
        i += 1
    assert warned, "no warning at 80% of the budget"
    items = w.items(include_evicted=True)
    summaries = [x for x in items if x.type == "summary"]
    assert summaries, "the compress strategy never compressed"
    by_id = {x.id: x for x in items}
    for s in summaries:
        assert s.cites, "a summary must cite what it replaced"
        for cited in s.cites:
            assert by_id[cited].replaced_by == s.id and by_id[cited].evicted_at is not None
        assert set(s.covers) <= set(added)
    live = [x for x in items if x.evicted_at is None]
    assert sum(x.tokens for x in live) <= 2000
    # every turn is still accounted for: live, or covered by the live summary
    covered = {c for s in live if s.type == "summary" for c in s.covers}
    assert set(added) == covered | {x.id for x in live if x.type == "turn"}


def test_evict_strategy_drops_lowest_importance_then_oldest(store):
    w = store.working("ev", budget_tokens=200, strategy="evict")
    w.add("keep this instruction: never deploy on Fridays " * 2, type="instruction", id="rule", importance=1.0)
    w.add("a low-value aside " * 6, id="low1", importance=0.1)
    w.add("another low-value aside " * 6, id="low2", importance=0.1)
    r = w.add("the user now wants the staging deploy first " * 8, id="new", importance=0.6)
    assert r.evicted and r.evicted[0] == "low1"
    assert "rule" in {x.id for x in w.items()}
    assert r.used_tokens <= 200


def test_checkpoint_resume_and_idempotent_steps(store):
    w = store.working("task-1")
    assert w.resume().status == "new"
    w.add("Find the cheapest flight to Berlin.", id="ask", role="user", author="lin")
    w.checkpoint({"step": 1, "todo": ["search", "book"]}, id="1")
    w.add("Searched three sites.", type="tool_result", id="search", source="search-1")
    w.checkpoint({"step": 2}, id="2")
    again = w.checkpoint({"step": 2}, id="2")
    assert again.duplicate
    assert w.add("Searched three sites.", type="tool_result", id="search").duplicate
    # another client (another process would do the same) sees the same session
    other = GraphMem(store.settings, tenant=store.tenant, driver=store._driver, install_schema=False)
    got = other.working("task-1").resume()
    assert got.status == "open" and got.state == {"step": 2} and got.checkpoints == 2
    assert [i.id for i in got.items] == ["ask", "search"]


def test_working_memory_is_in_the_ledger_and_rebuilt(store):
    w = store.working("rb", budget_tokens=300)
    for i in range(8):
        w.add(f"Turn {i}: " + TURN, id=f"t{i}", author="lin")
    w.use("t7")
    w.checkpoint({"step": 8})
    before = [(i.id, i.type, i.evicted_at, i.replaced_by, i.cites, i.tokens) for i in w.items(include_evicted=True)]
    state = w.resume().state
    ops = {e["op"] for e in store.events()}
    assert "working" in ops
    for e in store.events():
        assert e["actor"] == "owner"
    store.rebuild()
    after = [(i.id, i.type, i.evicted_at, i.replaced_by, i.cites, i.tokens) for i in w.items(include_evicted=True)]
    assert after == before and w.resume().state == state
    report = store.verify()
    assert report["chain_ok"] and report["projection_ok"]


def test_erase_removes_a_subjects_working_items_and_the_summaries_quoting_them(store):
    w = store.working("er", budget_tokens=300)
    for i in range(6):
        w.add(f"Turn {i} by mei: " + TURN, id=f"m{i}", author="mei")
    w.add("bob says hello there friends", id="b0", author="bob")
    assert any(i.type == "summary" for i in w.items(include_evicted=True))
    store.erase(subject="mei", reason="asked to be forgotten")
    left = w.items(include_evicted=True)
    assert [i.id for i in left if i.author == "mei"] == []
    assert not any(i.type == "summary" and any(c.startswith("m") for c in i.covers) for i in left)
    assert "b0" in {i.id for i in left}
    text = " ".join(e["payload"] for e in store.events())
    assert "by mei" not in text
    assert store.verify()["chain_ok"]


def test_bad_input_is_refused_and_writes_nothing(store):
    w = store.working("bad")
    w.add("first", id="x", role="user")
    head = _head(store)
    with pytest.raises(ValidationError):
        w.add("x", type="memo")
    with pytest.raises(ValidationError):
        w.add("   ")
    with pytest.raises(ValidationError):
        w.add("ok", importance=3)
    with pytest.raises(NotFoundError):
        w.add("cites nothing known", cites=["nope"])
    with pytest.raises(ValidationError):
        w.checkpoint(["not", "a", "dict"])  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        store.working("big", budget_tokens=64).add("word " * 400)
    with pytest.raises(ValidationError):
        store.working("b", budget_tokens=10)
    with pytest.raises(NotFoundError):
        w.use("nope")
    with pytest.raises(ValidationError):  # a working event applied by hand needs a well-formed detail
        store.apply({"op": "working", "action": "add", "session": "bad", "detail": {"text": "no id"}})
    assert _head(store) == head


def test_sessions_and_tenants_are_separate(store):
    store.working("s").add("only in s", id="a")
    other = store.for_tenant(f"test-{uuid.uuid4().hex[:10]}")
    try:
        assert other.working("s").items() == []
        assert store.working("s2").items() == []
        with pytest.raises(TenantError):
            store.working_sessions(tenant=other.tenant)
    finally:
        other.drop_tenant()
    assert [r["session"] for r in store.working_sessions()] == ["s"]


def test_secrets_are_masked_or_refused(store, monkeypatch):
    w = store.working("sec")
    r = w.add("use the key sk-live-ABCDEFGHIJKLMNOPQRSTUV and card 4111 1111 1111 1111 to pay", id="k")
    assert "ABCDEFGHIJ" not in r.item.text and "4111" not in r.item.text
    assert "[redacted:api_key]" in r.item.text and "[redacted:card_number]" in r.item.text
    assert "order 1234 5678 9012 3456" in w.add("order 1234 5678 9012 3456 shipped", id="o").item.text  # not Luhn
    monkeypatch.setenv("GRAPHMEM_SENSITIVE_MODE", "refuse")
    head = _head(store)
    with pytest.raises(SensitiveDataError):
        w.add("token: ghp_abcdefghijklmnopqrstuvwxyz0123456789AB")
    assert _head(store) == head


def test_close_turns_the_session_into_long_term_memory(store):
    w = store.working("trip")
    w.add("I moved to Hewan Rd on Sep 20.", id="u1", role="user", author="lin")
    w.add("ok", id="u2", role="user", author="lin")
    w.add("Let me check the calendar.", id="a1", role="agent", author="agent")
    w.add("calendar: lin travels to Haicheng Oct 3-7, api_key=sk-test-ABCDEFGHIJKLMNOPQRST", type="tool_result",
          id="cal", source="calendar-lookup")
    w.add("lin is probably in Haicheng on Oct 5", type="hypothesis", id="h1", author="agent", cites=["cal"],
          claim={"subject": "lin", "topic": "trip_city", "value": "Haicheng"})
    w.add("ignore this log line", type="tool_result", id="noise")
    w.add("use retry=3 for this run", type="instruction", id="param", temporary=True)
    w.add("book the courier", type="todo", id="todo")
    report = w.close("failure", task="send-package", steps=["guess address"], errors=["wrong address"],
                     wrong_memory=["f1"])
    assert {d["item"] for d in report.dropped} == {"u2", "a1", "noise", "param", "todo"}
    assert report.sources == ["calendar-lookup"]
    home = store.as_of("lin", "home_address")
    assert home.value == "Hewan Rd" and home.authority == "L1" and home.source == "trip/u1"
    assert store.as_of("lin", "trip_city").value is None  # an inference is not a fact ...
    cand = store.as_of("lin", "trip_city", include_candidates=True)
    assert cand.value == "Haicheng" and cand.authority == "L2" and cand.status == "candidate"
    assert cand.source == "calendar-lookup"
    src = store.why("lin", "trip_city", include_candidates=True)
    assert src.source == "calendar-lookup"
    assert "sk-test" not in " ".join(e["payload"] for e in store.events())
    # the session is closed: no more writes; closing again returns the same report
    with pytest.raises(ValidationError):
        w.add("late", id="late")
    assert w.close("failure", task="send-package").duplicate
    # the outcome went to playbooks: a later success on the task drafts an L3 card
    w2 = store.working("trip-2")
    w2.add("Please send it to the hotel.", id="u1", role="user", author="lin")
    done = w2.close("success", task="send-package", steps=["ask the user", "send to hotel"])
    assert done.card is not None and "guess address" in done.card["avoid_steps"]


def test_close_refuses_secrets_before_writing_anything(store, monkeypatch):
    w = store.working("leak")
    w.add("My address is 12 Hewan Rd.", id="u1", role="user", author="lin")
    monkeypatch.setenv("GRAPHMEM_SENSITIVE_MODE", "refuse")
    monkeypatch.setenv("GRAPHMEM_SENSITIVE_PATTERNS", _patterns(monkeypatch))
    head = _head(store)
    with pytest.raises(SensitiveDataError):
        w.close("success", task="t")
    assert _head(store) == head and store.as_of("lin", "home_address").value is None


def _patterns(monkeypatch) -> str:
    import json
    import tempfile
    f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump({"street": r"\d+ Hewan Rd"}, f)
    f.close()
    return f.name


def test_the_async_face_runs_the_same_plans(neo4j_target):
    from graphmem import AsyncGraphMem

    async def go() -> None:
        async with AsyncGraphMem(neo4j_target.settings, tenant=f"test-{uuid.uuid4().hex[:10]}") as mem:
            try:
                w = mem.working("a", budget_tokens=500)
                r = await w.add("async turn one", id="1", author="lin")
                assert r.item.id == "1"
                await w.checkpoint({"step": 1})
                got = await w.resume()
                assert got.state == {"step": 1} and [i.id for i in got.items] == ["1"]
                ctx = await w.context("turn one", budget_tokens=400)
                assert [x.id for x in ctx.working] == ["1"]
            finally:
                await mem.drop_tenant()
    asyncio.run(go())


def test_erase_of_a_closed_sessions_source_removes_its_working_item_too(store):
    w = store.working("gone")
    w.add("I moved to Hewan Rd on Sep 20.", id="u1", role="user", author="lin")
    w.add("Also I like tea a lot.", id="u2", role="user", author="lin")
    w.close("success", task="t")
    assert store.as_of("lin", "home_address").value == "Hewan Rd"
    store.erase(source="gone/u1", reason="asked")
    assert store.as_of("lin", "home_address").value is None
    assert [i.id for i in w.items(include_evicted=True)] == ["u2"]


def test_the_end_gate_keeps_no_secret_and_takes_no_agent_turn_for_a_persons(store):
    """close()'s task, steps and errors are scrubbed like the items; a turn without role="user" is
    the agent's and never becomes an L1 fact; a second close records the outcome once."""
    w = store.working("gate")
    w.add("I moved to Hewan Rd on Sep 20.", id="agent-guess")  # no role: the agent's words
    report = w.close("failure", task="deploy with token=abcd1234efgh5678ijkl",
                     errors=["auth failed: password=hunter2hunter2"])
    assert not report.stated and any(d["item"] == "agent-guess" for d in report.dropped)
    assert store.as_of("agent", "home_address").value is None and store.as_of("lin", "home_address").value is None
    rows = store._driver.execute_query("MATCH (o:Outcome {tenant: $t}) RETURN o.task AS task, o.errors AS errors",
                                       t=store.tenant).records
    assert len(rows) == 1
    assert "abcd1234efgh5678ijkl" not in rows[0]["task"] and "hunter2hunter2" not in " ".join(rows[0]["errors"])
    assert w.close("failure").duplicate


def test_ids_built_from_session_and_item_never_meet():
    from graphmem.working.working_store import wm_id

    assert wm_id("a/b", "c") != wm_id("a", "b/c")
    assert wm_id("s", "checkpoint:1") != wm_id("s", "checkpoint", "1")
    assert wm_id("a:b", "c") != wm_id("a", "b:c")
