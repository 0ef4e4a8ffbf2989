"""Words an agent relayed as the user's (issue #45 item 3; graphmem.core.relay): the relay is data —
the message's ``relayed_by`` — and every library answer drawn from it says so: ``as_of`` (both
views), ``why``, ``context()`` items and the rendered block, ``search`` and ``facts``. The user's
own statement carries no mark; a rebuild and ``verify`` keep it; a store written when the mark was
an id prefix (``relayed~<agent>~<id>``) is still read as relayed. (Over MCP:
tests/integration/test_mcp*.py.)"""

from __future__ import annotations

import json

from test_rebuild import canonical_hash

AT = "2026-09-18T10:00:00Z"
VALID = "2026-10-05"
TASK = "where does lin live? home address"


def _marks(mem, subject: str, topic: str, task: str) -> dict:
    """What each surface says about who relayed the answer for (subject, topic)."""
    ctx = mem.context(task, subject=subject, valid_at=VALID)
    items = [i for i in ctx.items if i.topic == topic]
    found = mem.search(task, subject=subject, valid_at=VALID)
    return {
        "as_of": mem.as_of(subject, topic, valid_at=VALID).relayed_by,
        "as_of_rules": mem.as_of(subject, topic, valid_at=VALID, include_candidates=True).relayed_by,
        "why": mem.why(subject, topic, valid_at=VALID).relayed_by,
        "why_rules": mem.why(subject, topic, valid_at=VALID, include_candidates=True).relayed_by,
        "history": [e.relayed_by for e in mem.history(subject, topic)],
        "items": [i.relayed_by for i in items],
        "item_warnings": [[w.kind for w in i.warnings if w.kind == "relayed"] for i in items],
        "search": [m.relayed_by for m in found.memories if m.topic == topic],
        "facts": [m.relayed_by for m in mem.facts(subject) if m.topic == topic],
        "text": ctx.render(),
    }


def test_a_relayed_statement_is_marked_everywhere_and_the_users_own_is_not(store):
    r = store.ingest("我9月20日起搬到河湾路。", id="m2", speaker="lin", at=AT, relayed_by="claude")
    store.ingest("I'm vegetarian.", id="m3", speaker="mei", at=AT)
    assert r.facts
    relayed = _marks(store, "lin", "home_address", TASK)
    assert relayed["as_of"] == relayed["as_of_rules"] == relayed["why"] == relayed["why_rules"] == "claude"
    assert relayed["history"] == ["claude"]
    assert relayed["items"] == ["claude"] and relayed["item_warnings"] == [["relayed"]]
    assert relayed["search"] == ["claude"] and relayed["facts"] == ["claude"]
    # the rendered block: a short plain mark on the fact's own line, the id as it was given
    line = next(x for x in relayed["text"].splitlines() if x.startswith("- lin home address"))
    assert line.endswith("m2 · relayed by agent claude"), line
    assert store.as_of("lin", "home_address", valid_at=VALID).source == "m2"

    own = _marks(store, "mei", "diet", "what does mei eat? diet")
    assert own["as_of"] is own["as_of_rules"] is own["why"] is own["why_rules"] is None
    assert own["history"] == [None]
    assert own["items"] == [None] and own["item_warnings"] == [[]]
    assert own["search"] == [None] and own["facts"] == [None]
    assert "relayed" not in own["text"]


def test_the_relay_is_a_ledger_field_a_rebuild_replays(store, driver):
    store.ingest("我9月20日起搬到河湾路。", id="m2", speaker="lin", at=AT, relayed_by="claude")
    store.add_source("note-1", kind="message", at=AT, text="Lin said the port is 7000.", author="lin",
                     relayed_by="claude")
    store.set("deploy", "port", "7000", source="note-1")
    added = store.add([{"role": "user", "content": "I'm vegetarian.", "relayed_by": "claude"},
                       {"role": "assistant", "content": "Noted.", "relayed_by": "claude"}], user="lin", session="s1")
    # only a user row is relayed; an assistant's words are the assistant's
    assert [a.relayed_by for a in added] == ["claude", None]
    payloads = [json.loads(e["payload"]) for e in store.events()]
    assert [p.get("relayed_by") for p in payloads if p["op"] in ("message", "source")] == \
        ["claude", "claude", "claude", None]
    assert store.as_of("deploy", "port").relayed_by == "claude"
    assert store.as_of("lin", "diet").relayed_by == "claude"
    before = canonical_hash(driver, store.tenant)
    store.rebuild()
    assert canonical_hash(driver, store.tenant) == before
    report = store.verify()
    assert report["ok"] and report["chain_ok"] and report["projection_ok"]
    assert store.as_of("lin", "home_address", valid_at=VALID).relayed_by == "claude"
    assert store.why("deploy", "port").relayed_by == "claude"


def test_an_old_style_relayed_id_is_still_marked(store):
    """Before ``relayed_by`` the MCP server wrote the mark into the id; such a store needs no migration."""
    store.ingest("我9月20日起搬到河湾路。", id="relayed~claude~m2", speaker="lin", at=AT)
    marks = _marks(store, "lin", "home_address", TASK)
    assert marks["as_of"] == marks["as_of_rules"] == marks["why"] == marks["why_rules"] == "claude"
    assert marks["history"] == ["claude"]
    assert marks["items"] == ["claude"] and marks["search"] == ["claude"] and marks["facts"] == ["claude"]
    assert "relayed by agent claude" in marks["text"]


def test_a_message_item_carries_its_own_relay(store):
    store.ingest("We talked about the weather in Hangzhou today.", id="m7", speaker="lin", at=AT, session="s9",
                 relayed_by="claude")
    ctx = store.context("what did lin say about the weather in Hangzhou?", valid_at=VALID)
    said = [i for i in ctx.items if i.kind == "message" and i.source and i.source.id == "m7"]
    assert said and said[0].relayed_by == "claude"
    assert "m7 lin (relayed by agent claude):" in ctx.render()


def test_a_sessions_messages_say_which_were_relayed(store):
    store.add([{"role": "user", "content": "I live in Paris.", "relayed_by": "claude"},
               {"role": "assistant", "content": "Noted, Paris."}], user="lin", session="s1")
    said = store.messages("s1")
    assert [(m.speaker, m.relayed_by) for m in said] == [("lin", "claude"), ("assistant", None)]
    assert not any(m.id.startswith("relayed~") for m in said)


def test_the_cli_ingests_a_relayed_message(neo4j_target):
    """`graphmem ingest --relayed-by` as a subprocess: `as-of --json` shows who relayed the answer."""
    import uuid

    from graphmem import GraphMem
    from test_cli_verbs import _ok

    t = f"relayed-cli-{uuid.uuid4().hex[:8]}"
    try:
        _ok(neo4j_target, "ingest", "我9月20日起搬到河湾路。", "--speaker", "lin", "--id", "m2", "--at", AT,
            "--relayed-by", "claude", "-t", t)
        answer = json.loads(_ok(neo4j_target, "as-of", "lin", "home_address", "--valid-at", VALID, "-t", t, "--json"))
        assert (answer["value"], answer["source"], answer["relayed_by"]) == ("河湾路", "m2", "claude")
    finally:
        GraphMem(neo4j_target.settings, tenant=t, install_schema=False).drop_tenant()


def test_a_path_ending_in_relayed_words_says_so(store):
    store.add_source("n1", kind="message", at="2020-01-01T00:00:00Z", text="Bob manages Alice.", author="lin")
    store.add_source("n2", kind="message", at="2020-01-01T00:00:00Z", text="Carol manages Bob.", author="lin",
                     relayed_by="claude")
    store.set("alice", "managed_by", object="bob", source="n1")
    store.set("bob", "managed_by", object="carol", source="n2")
    for rules_view in (False, True):
        assert store.path("alice", ["managed_by"], include_candidates=rules_view).relayed_by is None
        end = store.path("alice", ["managed_by", "managed_by"], include_candidates=rules_view)
        assert (end.value, end.relayed_by) == ("carol", "claude"), rules_view


def test_an_episode_from_relayed_words_says_so(store):
    store.ingest("I went to a support group yesterday.", id="m5", speaker="lin", at=AT, relayed_by="claude")
    store.ingest("I went to a pottery class yesterday.", id="m6", speaker="mei", at=AT)
    by_who = {e.who: e for e in store.episodes()}
    assert (by_who["lin"].source, by_who["lin"].relayed_by) == ("m5", "claude") and by_who["mei"].relayed_by is None
    found = [m for m in store.search("when did lin go to the support group?", subject="lin").memories
             if m.kind == "episode"]
    assert found and found[0].relayed_by == "claude" and [w.kind for w in found[0].warnings] == ["relayed"]
