"""Episodic recall (issue #13): what was said is a recall item — found, fenced, attributed, scoped,
folded with its facts, marked when what it said no longer holds, erased with its vector."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem import GraphMem
from graphmem.core.errors import ValidationError

EXE = str(Path(sys.executable).parent / "graphmem")

CHAT = [
    {"id": "c1", "speaker": "Caroline", "at": "2023-05-08T13:56:00Z",
     "text": "I went to a LGBTQ support group yesterday and it was so powerful."},
    {"id": "c2", "speaker": "Melanie", "at": "2023-05-08T13:57:00Z",
     "text": "That's great! I painted a lake sunrise last year, it's special to me."},
    {"id": "c3", "speaker": "Caroline", "at": "2023-06-01T10:00:00Z",
     "text": "I've been researching adoption agencies, it's been a dream of mine."},
    {"id": "c4", "speaker": "Melanie", "at": "2023-06-01T10:01:00Z",
     "text": "Camping with the kids in the mountains was amazing last weekend."},
]


def _messages(ctx):
    return [i for i in ctx.items if i.kind == "message"]


def test_a_message_is_found_fenced_and_attributed(store):
    store.ingest_bulk(CHAT)
    ctx = store.context("When did Caroline go to the LGBTQ support group?", budget_tokens=400)
    said = _messages(ctx)
    assert said and said[0].source.id == "c1" and said[0].subject == "Caroline"
    assert said[0].version is not None and said[0].source.at.year == 2023
    text = ctx.render()
    assert "### What was said\nSaid 2023-05-08 13:56 UTC:\nc1 Caroline:\n" in text
    assert "```\nI went to a LGBTQ support group yesterday" in text
    assert "text" in said[0].legs[0]


def test_ingest_bulk_is_idempotent_and_validates_first(store, driver):
    store.ingest_bulk(CHAT)
    again = store.ingest_bulk(CHAT)
    assert all(r.duplicate for r in again)
    n = driver.execute_query("MATCH (s:Source {tenant: $t}) RETURN count(s) AS n", t=store.tenant).records[0]["n"]
    assert n == len(CHAT)
    with pytest.raises(ValidationError, match="message 1"):
        store.ingest_bulk([{"id": "x1", "speaker": "a", "text": "fine"}, {"id": "x2", "speaker": "a", "txt": "bad"}])
    assert not store.events_page(after=len(CHAT))  # nothing of the refused bulk was written


def test_a_message_that_yielded_a_fact_is_shown_once(store):
    store.ingest("I moved to Hewan Rd on Sep 20.", id="m1", speaker="lin", at="2026-09-25T10:00:00Z")
    ctx = store.context("Where does lin live now? Hewan", subject="lin")
    facts = [i for i in ctx.items if i.kind == "fact" and i.topic == "home_address"]
    assert facts and facts[0].source.id == "m1"
    assert not [m for m in _messages(ctx) if m.source.id == "m1"]
    # the fact's one line cites the message; its text (the subject's own words) is not repeated
    assert ctx.render().count("I moved to Hewan Rd") <= 1 and " m1\n" in ctx.render()


def test_what_a_message_said_no_longer_holding_is_marked(store):
    store.ingest("I moved to Qinghe Rd on Sep 1.", id="m1", speaker="lin", at="2026-09-02T10:00:00Z")
    store.ingest("I moved to Hewan Rd on Sep 20.", id="m2", speaker="lin", at="2026-09-25T10:00:00Z")
    ctx = store.context("Where did lin live before, on Qinghe Rd?", subject="lin", valid_at="2026-10-05")
    current = [i for i in ctx.items if i.kind == "fact" and i.topic == "home_address"]
    assert [i.value for i in current] == ["Hewan Rd"]  # never the old one as current
    old = [i for i in ctx.items if i.source and i.source.id == "m1"]
    assert old and old[0].kind in ("history", "message")
    warning = " ".join(w.message for w in old[0].warnings)
    assert any(w.kind == "superseded" for w in old[0].warnings) and "Hewan Rd" in warning


def test_a_message_whose_fact_is_an_unconfirmed_candidate_is_not_marked_replaced(store, driver):
    """A candidate drawn from chat never reached the timeline, so nothing replaced it: no
    'no longer holds' warning on the message it came from (found on LoCoMo: every message with a
    drawn family or pet candidate was flagged "now: nothing")."""
    store.ingest("We adopted a puppy in June.", id="p1", speaker="Maria", at="2023-05-08T13:56:00Z")
    drawn = driver.execute_query("MATCH (f:Fact {tenant: $t}) RETURN f.status AS status, f.uid AS uid",
                                 t=store.tenant).records
    assert [r["status"] for r in drawn] == ["candidate"], "the fixture needs a candidate drawn from p1"
    said = [m for m in _messages(store.context("Did Maria adopt a puppy?", budget_tokens=600)) if m.source.id == "p1"]
    assert said and not [w for w in said[0].warnings if w.kind == "superseded"]
    store.confirm(fact=drawn[0]["uid"], actor="Maria")  # the subject confirms: on the timeline now, still holding
    ctx = store.context("Did Maria adopt a puppy?", budget_tokens=600)
    shown = [i for i in ctx.items if i.source and i.source.id == "p1"]
    assert [i.kind for i in shown] == ["fact"] and shown[0].value == "puppy"  # the message folds under its fact
    assert not [w for w in shown[0].warnings if w.kind == "superseded"]


def test_a_question_about_the_past_reaches_superseded_facts(store):
    store.add_source("s1", kind="message", at="2026-01-10", text="team lead is Ann")
    store.set("proj", "lead", "Ann", source="s1")
    store.add_source("s2", kind="message", at="2026-03-01", text="team lead is now Bo")
    store.set("proj", "lead", "Bo", source="s2")
    ctx = store.context("Who was the lead before? Ann", subject="proj", config="facts")
    hist = [i for i in ctx.items if i.kind == "history"]
    assert [i.value for i in hist] == ["Ann"]
    assert hist[0].warnings[0].kind == "superseded" and "now: Bo" in hist[0].warnings[0].message
    assert "(no longer holds: history, not current)" in ctx.render()
    # not a question about the past: no history
    assert not [i for i in store.context("who leads proj? Ann", subject="proj").items if i.kind == "history"]


def test_names_resolve_to_speakers_and_ambiguity_is_reported(store):
    store.ingest_bulk(CHAT + [{"id": "c5", "speaker": "Melissa", "at": "2023-06-02T10:00:00Z",
                                "text": "I adopted a cat named Tofu."}])
    ctx = store.context("What did Caroline research?")
    assert _messages(ctx)[0].source.id == "c3"
    amb = store.context("What did Mel paint?")
    assert any("'Mel' could be 'Melanie' or 'Melissa'" in n for n in amb.notes)
    store.alias("Melanie", "Mel")
    assert not any("could be" in n for n in store.context("What did Mel paint?").notes)


def test_a_named_time_range_ranks_its_messages_first(store):
    store.ingest_bulk([
        {"id": "a", "speaker": "kim", "at": "2023-05-03T10:00:00Z", "text": "went hiking in the hills"},
        {"id": "b", "speaker": "kim", "at": "2023-07-03T10:00:00Z", "text": "went hiking in the hills"}])
    ctx = store.context("Where did kim go hiking in July 2023?", valid_at="2023-12-01")
    assert [m.source.id for m in _messages(ctx)][:2] == ["b", "a"]
    ctx = store.context("Where did kim go hiking in May 2023?", valid_at="2023-12-01")
    assert [m.source.id for m in _messages(ctx)][:2] == ["a", "b"]


def test_a_named_range_reaches_what_was_said_then_or_just_after_looking_back(store):
    # The second week of November 2023 is Nov 8-15. Tim told of it on Nov 16 ("last Friday"): the
    # time leg reads the text leg's hits said in the range or in the week after it, so that turn
    # ranks above a later one with the same words; one said after the report window gets nothing.
    store.ingest_bulk([
        {"id": "late", "speaker": "tim", "at": "2023-12-20T10:00:00Z", "text": "Visiting a castle in Germany today!"},
        {"id": "told", "speaker": "tim", "at": "2023-11-16T10:00:00Z",
         "text": "Guess what? I went to a castle during my trip to the UK last Friday!"},
        {"id": "after", "speaker": "tim", "at": "2023-11-25T10:00:00Z", "text": "I went to a castle again last week."}])
    ctx = store.context("Which castle was tim visiting in the second week of November?", valid_at="2024-01-12")
    found = {m.source.id: m for m in _messages(ctx)}
    assert _messages(ctx)[0].source.id == "told"
    assert any(leg.startswith("time:") for leg in found["told"].legs)
    assert not any(leg.startswith("time:") for leg in found["after"].legs + found["late"].legs)


def test_a_dated_episode_puts_its_message_inside_the_range_it_happened_in(store):
    # Both were said in May; only the first tells of something in early March 2023.
    store.ingest_bulk([
        {"id": "b", "speaker": "kim", "at": "2023-05-08T10:01:00Z", "text": "In March I ran a marathon in Paris, last year."},
        {"id": "a", "speaker": "kim", "at": "2023-05-08T10:00:00Z", "text": "On March 3 I ran my first marathon, what a day."}])
    assert [e.source for e in store.episodes(who="kim", since="2023-03-01", until="2023-03-11")] == ["a"]
    ctx = store.context("Which marathon did kim run in early March 2023?", valid_at="2023-12-01")
    assert [m.source.id for m in _messages(ctx)][:2] == ["a", "b"]


def test_a_question_in_the_base_form_finds_an_irregular_past(store):
    # "win" / "won": the English analyzer's stemmer does not join them; the text leg asks for both
    store.ingest_bulk([
        {"id": "lost", "speaker": "kim", "at": "2023-05-08T10:00:00Z", "text": "We lost the chess final, sadly."},
        {"id": "won", "speaker": "kim", "at": "2023-06-08T10:00:00Z", "text": "I won the chess final today!"}])
    ctx = store.context("When did kim win a chess final?", valid_at="2023-12-01")
    assert _messages(ctx)[0].source.id == "won"


def test_presets_and_bad_config(store):
    store.ingest_bulk(CHAT)
    assert not _messages(store.context("support group", config="facts"))
    assert _messages(store.context("support group", config="conversation"))
    with pytest.raises(ValidationError, match="unknown recall preset"):
        store.context("support group", config="nope")
    with pytest.raises(ValidationError, match="bad recall config"):
        store.context("support group", config={"message_limit": 0})


def test_chinese_messages_are_found_through_the_cjk_index(store):
    store.ingest_bulk([{"id": "z1", "speaker": "lin", "at": "2026-10-01T09:00:00Z", "text": "周末我们去爬了黄山，风景很好。"},
                       {"id": "z2", "speaker": "lin", "at": "2026-10-02T09:00:00Z", "text": "明天要开会讨论预算。"}])
    ctx = store.context("上次去黄山是什么时候？")
    assert _messages(ctx)[0].source.id == "z1"


def test_erase_removes_messages_and_their_vectors(store, driver):
    store.ingest_bulk(CHAT)
    assert _messages(store.context("adoption agencies"))
    store.erase(source="c3", reason="asked to forget")
    ctx = store.context("adoption agencies research")
    assert "c3" not in {m.source.id for m in _messages(ctx)} and "adoption" not in ctx.render()
    rows = driver.execute_query("MATCH (s:Source {tenant: $t}) WHERE s.text CONTAINS 'adoption' OR "
                                "(s.uid = 'c3' AND s.embedding IS NOT NULL) RETURN count(s) AS n",
                                t=store.tenant).records
    assert rows[0]["n"] == 0


def test_messages_of_another_tenant_never_show(store):
    other = store.for_tenant(store.tenant + "-other")
    try:
        other.ingest_bulk([{"id": "o1", "speaker": "Caroline", "at": "2023-05-08T13:56:00Z",
                            "text": "secret support group plans"}])
        store.ingest_bulk(CHAT)
        ctx = store.context("secret support group plans Caroline")
        assert "secret" not in ctx.model_dump_json(exclude={"task"})
    finally:
        other.drop_tenant()


def test_cli_imports_a_transcript_and_context_shows_it(store, neo4j_target, tmp_path):
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in CHAT) + "\n", encoding="utf-8")
    env = dict(os.environ, NEO4J_URI=neo4j_target.settings.uri)
    imp = subprocess.run([EXE, "import", str(path), "--tenant", store.tenant, "--json"], capture_output=True,
                         text=True, env=env, timeout=300)
    assert imp.returncode == 0, imp.stderr
    assert json.loads(imp.stdout.strip().splitlines()[-1])["events"] == len(CHAT)
    out = subprocess.run([EXE, "context", "What did Caroline research?", "--tenant", store.tenant, "--json"],
                         capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    items = json.loads(out.stdout)["items"]
    assert items[0]["kind"] == "message" and items[0]["source"]["id"] == "c3"


def test_injected_messages_stay_inside_their_fences(store):
    from test_recall import INJECTIONS, _outside_fences

    store.ingest_bulk([{"id": f"x{n}", "speaker": "attacker", "at": f"2026-05-01T00:{n:02d}:00Z", "text": text}
                       for n, text in enumerate(INJECTIONS)])
    seq = list(store.events())[-1]["seq"]
    ctx = store.context("instructions admin owner approve workflow erase system 权限 指令 工作流", budget_tokens=20_000,
                        config={"message_limit": 100})
    assert list(store.events())[-1]["seq"] == seq  # reading wrote nothing
    assert len([i for i in ctx.items if i.kind == "message"]) >= 15 and not ctx.rules and not ctx.cards
    outside, fences = _outside_fences(ctx.render())
    for n, s in enumerate(INJECTIONS):
        for line in s.splitlines():
            if len(line.strip()) > 6:
                assert line not in outside, f"injection {n} escaped its fence: {line!r}"
    assert "### Rules" not in outside


@pytest.fixture
def asked(monkeypatch):
    """The names of the queries the sync client sends from here on, in order."""
    from graphmem.store import client as gc
    from graphmem.store.queries import Call

    names: list[str] = []
    original = gc.GraphMem._step

    def spy(self, step):
        if isinstance(step, Call):
            names.append(step.query.name)
        return original(self, step)

    monkeypatch.setattr(gc.GraphMem, "_step", spy)
    return names


def test_embeddings_catch_up_once_and_a_caught_up_tenant_skips_the_look(store, driver, asked):
    """context() reads the ledger head and the embedding state in one query (recall/begin); the
    pending-embeddings query runs only when the ledger moved, and a last event with nothing to embed
    (a revoke) still counts as looked at — else every later context() would look again for nothing."""
    store.ingest_bulk(CHAT)
    store.set("Caroline", "hobby", "painting", recorded_at="2023-06-02T00:00:00Z")
    store.revoke("Caroline", "hobby", recorded_at="2023-06-03T00:00:00Z")
    asked.clear()
    first = store.context("Caroline support group", budget_tokens=400)
    asked_first = list(asked)
    asked.clear()
    store.context("Caroline support group", budget_tokens=400)
    assert "recall/embed_pending" in asked_first and "recall/embed_pending" not in asked
    state = driver.execute_query("MATCH (x:EmbeddingState {tenant: $t}) RETURN x.seq AS seq", t=store.tenant)
    assert state.records[0]["seq"] == first.ledger_version == len(CHAT) + 2


def test_a_chat_tenant_of_candidates_costs_three_round_trips_with_the_same_answer(store, asked):
    """Facts drawn from chat are unconfirmed candidates: nothing is on the timeline, so the fact legs,
    history and the gap check's slot reads would find nothing; context() asks recall/begin (behind,
    at once with recall/people: the task names her), recall/people and recall/messages only — and
    still reports the gap (nothing holds her address)."""
    store.ingest_bulk(CHAT + [{"id": "p1", "speaker": "Melanie", "at": "2023-06-02T10:00:00Z",
                               "text": "We adopted a puppy in June."}])
    store.context("warm up: embeddings catch up", budget_tokens=400)
    asked.clear()
    ctx = store.context("Where should I send Melanie's package? Did she go camping before?", budget_tokens=800)
    assert asked == ["recall/begin", "recall/people", "recall/messages"]
    assert [(g.subject, g.kind) for g in ctx.gaps] == [("Melanie", "missing")]
    assert "c4" in {i.source.id for i in _messages(ctx)}


def test_as_of_many_answers_each_slot_as_as_of_does(store, eval_dir):
    """The batched view recall uses to say what holds now is as_of's, slot for slot (values, a
    conflict, a many-valued topic, an expiry note), at several days and as known on several days."""
    import json

    from graphmem.store import ops

    scenarios = {s["id"]: s for s in json.loads((eval_dir / "scenarios.json").read_text(encoding="utf-8"))}
    events = [e for sid in ("address-move-trip-quote", "equal-sources-conflict") for e in scenarios[sid]["events"]]
    for e in sorted(events, key=lambda e: e.get("recorded_at") or e.get("at") or ""):
        store.apply({k: v for k, v in e.items() if k != "tenant"})
    store.apply({"op": "topic", "name": "pet", "cardinality": "many"})
    store.set("lin", "pet", "cat", valid_from="2026-02-01", recorded_at="2026-11-01T00:00:00Z")
    store.set("lin", "pet", "dog", valid_from="2026-03-01", recorded_at="2026-11-02T00:00:00Z")
    store.set("lin", "parking", "P3", valid_from="2026-09-01", recorded_at="2026-11-03T00:00:00Z",
              expires_at="2026-11-10T00:00:00Z")
    slots = sorted({(r["subject"], r["topic"], r["env"] or None) for r in store._driver.execute_query(
        "MATCH (f:Fact {tenant: $t}) RETURN DISTINCT f.subject AS subject, f.topic AS topic, f.env AS env",
        t=store.tenant).records}) + [("nobody", "nothing", None)]
    assert len(slots) >= 5
    conflicts = 0
    for valid_at, known_at in (("2026-10-05", "2026-11-29"), ("2026-03-15", "2026-11-02T12:00:00Z"),
                               ("2026-09-05", "2026-11-20"), ("2026-09-05", "2026-11-05"), ("2026-11-25", "2026-11-25"),
                               ("2026-05-05", "2026-05-02")):
        many = store._run(ops.as_of_many(store.tenant, store._clock(), slots, valid_at=valid_at, known_at=known_at))
        # as_of's own plan: the client's as_of adds a typo hint to an empty answer on top of it
        one = [store._run(ops.as_of(store.tenant, store._clock(), s, tp, valid_at=valid_at, known_at=known_at, env=e))
               for s, tp, e in slots]
        assert many == one
        conflicts += sum(1 for a in one if a.conflict)
    assert conflicts  # the view with two equal sources that disagree was among them
