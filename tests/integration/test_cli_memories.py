"""graphmem search / facts / candidates and what `graphmem ingest` prints, run as subprocesses
against Neo4j (issue #44): each prints one memory a line, or the models with --json."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXE = str(Path(sys.executable).parent / "graphmem")


def _ok(cli_env, *args: str) -> str:
    out = subprocess.run([EXE, *args], capture_output=True, text=True, env=cli_env, timeout=120)
    assert out.returncode == 0, (args, out.stderr)
    return out.stdout


def _story(store) -> None:
    store.add_source("r2", kind="message", at="2026-09-25T10:00:00Z", text="I moved to Hewan Rd on Sep 20",
                     author="lin")
    store.set("lin", "home_address", "Hewan Rd", source="r2", valid_from="2026-09-20")
    store.set("lin", "office", "B2", status="candidate", authority="L2", ref="g1")


def test_search_prints_ranked_memories(store, cli_env):
    _story(store)
    t = store.tenant
    text = _ok(cli_env, "search", "where does lin live?", "--subject", "lin", "-t", t)
    first = text.splitlines()[0]
    assert "fact" in first and "lin · home_address = Hewan Rd" in first and "(source r2)" in first
    data = json.loads(_ok(cli_env, "search", "where does lin live?", "--subject", "lin", "--limit", "1",
                          "--json", "-t", t))
    assert len(data["memories"]) == 1 and data["memories"][0]["value"] == "Hewan Rd"
    assert data["memories"][0]["score"] > 0 and data["tenant"] == t


def test_facts_and_candidates(store, cli_env):
    _story(store)
    t = store.tenant
    lines = _ok(cli_env, "facts", "lin", "--include-candidates", "-t", t).splitlines()
    assert lines[0].startswith("fact") and "home_address = Hewan Rd" in lines[0]
    assert lines[1].startswith("candidate") and "office = B2" in lines[1] and "ref g1" in lines[1]
    assert [m["topic"] for m in json.loads(_ok(cli_env, "facts", "lin", "--json", "-t", t))] == ["home_address"]
    cands = json.loads(_ok(cli_env, "candidates", "--json", "-t", t))
    assert [(c["subject"], c["value"], c["ref"], c["kind"]) for c in cands] == [("lin", "B2", "g1", "candidate")]
    _ok(cli_env, "confirm", "g1", "-t", t)
    assert _ok(cli_env, "candidates", "-t", t).strip() == "no candidates wait"


def test_ingest_prints_what_it_drew(store, cli_env):
    t = store.tenant
    text = _ok(cli_env, "ingest", "我9月20日起搬到河湾路。", "--speaker", "lin", "--id", "m2", "--at",
               "2026-09-18T10:00:00Z", "-t", t)
    assert "lin · home_address = 河湾路" in text and "from 2026-09-20" in text, text
    assert "nothing drawn" in _ok(cli_env, "ingest", "hello there", "--speaker", "lin", "--id", "m3", "-t", t)
    data = json.loads(_ok(cli_env, "ingest", "我9月20日起搬到河湾路。", "--speaker", "lin", "--id", "m2", "--at",
                          "2026-09-18T10:00:00Z", "-t", t, "--json"))
    assert data["duplicate"] and [(d["topic"], d["value"]) for d in data["drawn"]] == [("home_address", "河湾路")]
