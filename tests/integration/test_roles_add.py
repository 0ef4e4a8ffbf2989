"""``mem.add`` / ``graphmem add`` / ``graphmem import`` with chat rows ``{role, content}``: the role
decides who speaks — an assistant's words never become a person's L1 fact — ids are made when
absent and re-adding writes nothing new, and a bad row is rejected with its line."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import anyio

from graphmem import AsyncGraphMem, GraphMem

EXE = str(Path(sys.executable).parent / "graphmem")
AT = "2026-09-18T10:00:00Z"

CHAT = [{"role": "user", "content": "I'm vegetarian."},
        {"role": "assistant", "content": "Noted, vegetarian."},
        {"role": "assistant", "content": [{"type": "text", "text": "Lasagna is vegan if you use tofu ricotta."}]},
        {"role": "assistant", "content": "Where should I send it?"},
        {"role": "user", "content": "Send it to the hotel."}]


def test_the_assistants_words_are_no_persons_fact(store):
    added = store.add(CHAT, user="lin", session="s1", at=AT, embed=False)
    assert [a.speaker for a in added] == ["lin", "assistant", "assistant", "assistant", "lin"]
    assert [a.drawn_as for a in added] == ["stated", "inferred", "inferred", "inferred", "stated"]
    assert store.as_of("lin", "diet").value == "vegetarian"
    # "Noted, vegetarian." is not the assistant's diet, not even as a candidate
    assert not store.as_of("assistant", "diet", include_candidates=True).holds
    assert not store.assertions("assistant", "diet")
    # the recipe tip is at most an L2 candidate by the assistant: no answer by default
    assert not store.as_of("lasagna", "diet").holds
    tip = store.as_of("lasagna", "diet", include_candidates=True)
    if tip.holds:
        assert (tip.authority, tip.status, tip.author) == ("L2", "candidate", "assistant")
    assert added[1].facts == []


def test_the_reply_to_a_question_is_the_users_and_invents_nothing(store, driver, neo4j_target):
    added = store.add(CHAT, user="lin", session="s1", at=AT, embed=False)
    records, _, _ = driver.execute_query(
        "MATCH (s:Source {tenant: $tenant}) WHERE s.uid IN $ids RETURN s.uid AS uid, s.author AS author, "
        "s.text AS text", tenant=store.tenant, ids=[a.id for a in added], database_=neo4j_target.settings.database)
    sources = {r["uid"]: (r["author"], r["text"]) for r in records}
    assert sources[added[4].id] == ("lin", "Send it to the hotel.")  # the user is the speaker
    assert sources[added[3].id] == ("assistant", "Where should I send it?")
    assert added[4].facts == []  # "it" names nothing known: precision first, nothing is drawn


def test_adding_the_same_rows_again_writes_nothing(store):
    first = store.add(CHAT, user="lin", session="s1", at=AT, embed=False)
    again = store.add(CHAT, user="lin", session="s1", embed=False)  # another time: same rows, same ids
    assert [a.id for a in first] == [a.id for a in again]
    assert all(a.duplicate for a in again) and not any(a.duplicate for a in first)
    assert len(store.assertions("lin", "diet")) == 1


def test_async_add(neo4j_target):
    tenant = f"add-{uuid.uuid4().hex[:8]}"

    async def run():
        async with AsyncGraphMem(neo4j_target.settings, tenant=tenant) as mem:
            try:
                added = await mem.add([{"role": "user", "content": "I live in Berlin.", "name": "mei"}],
                                      at=AT, embed=False)
                return added, await mem.as_of("mei", "home_city")
            finally:
                await mem.drop_tenant()
    added, city = anyio.run(run)
    assert added[0].speaker == "mei" and city.value == "Berlin"


def test_import_and_add_verbs_read_chat_rows(neo4j_target, cli_env, tmp_path):
    tenant = f"roles-{uuid.uuid4().hex[:8]}"
    rows = [{"role": "user", "name": "lin", "content": "I'm vegetarian.", "created_at": AT, "metadata": {"k": 1}},
            {"role": "assistant", "content": "Noted, vegetarian.", "tool_calls": []},
            {"role": "robot", "content": "beep"},
            {"id": "m9", "speaker": "lin", "text": "hi", "mood": "good"},
            {"role": "user", "name": "lin", "content": "I live in Berlin.", "created_at": AT}]
    f = tmp_path / "chat.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    try:
        proc = subprocess.run([EXE, "import", str(f), "-t", tenant, "--json"], capture_output=True, text=True,
                              env=cli_env, timeout=300)
        assert proc.returncode == 1, proc.stderr  # rows were rejected: the import says so in its exit code
        s = json.loads(proc.stdout.strip().splitlines()[-1])
        assert (s["events"], s["rejected"]) == (3, 2)
        where = {r["where"]: r["reason"] for r in s["rejects"]}
        assert "'role' must be one of" in where["chat.jsonl:3"]
        assert "unknown transcript field(s): mood" in where["chat.jsonl:4"]
        with GraphMem(neo4j_target.settings, tenant=tenant, install_schema=False) as mem:
            assert mem.as_of("lin", "diet").value == "vegetarian"
            assert mem.as_of("lin", "home_city").value == "Berlin"
            assert not mem.assertions("assistant", "diet")
        chat = tmp_path / "more.json"
        chat.write_text(json.dumps([{"role": "user", "content": "I moved to Paris on Oct 1."}]))
        out = subprocess.run([EXE, "add", str(chat), "--user", "lin", "--session", "s2", "--at", AT,
                              "--no-embed", "-t", tenant, "--json"], capture_output=True, text=True, env=cli_env,
                             timeout=300)
        assert out.returncode == 0, out.stderr
        added = json.loads(out.stdout)
        assert added[0]["speaker"] == "lin" and added[0]["id"].startswith("msg-") and added[0]["facts"]
        again = subprocess.run([EXE, "add", str(chat), "--user", "lin", "--session", "s2", "--no-embed",
                                "-t", tenant, "--json"], capture_output=True, text=True, env=cli_env, timeout=300)
        assert json.loads(again.stdout)[0]["duplicate"] is True
    finally:
        with GraphMem(neo4j_target.settings, tenant=tenant, install_schema=False) as mem:
            mem.drop_tenant()


def test_ingest_bulk_speaker_rows_by_the_assistant(store):
    store.ingest_bulk([{"id": "m1", "speaker": "lin", "text": "I'm vegetarian.", "at": AT},
                       {"id": "m2", "speaker": "assistant", "text": "Noted, vegetarian.", "at": AT}], embed=False)
    assert store.as_of("lin", "diet").value == "vegetarian"
    assert not store.as_of("assistant", "diet", include_candidates=True).holds
