"""The recall commands of the CLI, run as a subprocess: context, summary, user show/apply."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

EXE = str(Path(sys.executable).parent / "graphmem")


def _run(neo4j_target, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, NEO4J_URI=neo4j_target.settings.uri)
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=env, input=stdin, timeout=120)


def test_context_summary_and_user_page(store, neo4j_target, tmp_path):
    t = store.tenant
    store.add_source("m0918", kind="message", at="2026-09-18T10:00:00Z", text="我9月20日起搬到河湾路。", author="lin")
    store.set("lin", "home_address", "河湾路", valid_from="2026-09-20", source="m0918", recorded_at="2026-09-18T10:00:00Z")
    out = _run(neo4j_target, "context", "lin 的地址？", "--subject", "lin", "--valid-at", "2026-10-05", "-t", t)
    assert out.returncode == 0, out.stderr
    assert '- lin home address = "河湾路" · since 2026-09-20 · lin 2026-09-18 m0918' in out.stdout
    js = _run(neo4j_target, "context", "lin 的地址？", "--subject", "lin", "--budget", "2000", "--json", "-t", t)
    data = json.loads(js.stdout)
    assert data["items"][0]["value"] == "河湾路" and data["used_tokens"] <= 2000
    bad = _run(neo4j_target, "context", "x", "--budget", "5", "-t", t)
    assert bad.returncode == 1 and bad.stderr.startswith("Error: ") and len(bad.stderr.strip().splitlines()) == 1
    s = _run(neo4j_target, "summary", "lin", "-t", t, "--json")
    assert s.returncode == 0 and "home_address: 河湾路" in json.loads(s.stdout)["text"]
    page = tmp_path / "user.md"
    shown = _run(neo4j_target, "user", "show", "lin", "--out", str(page), "-t", t)
    assert shown.returncode == 0 and "- home_address: 河湾路" in page.read_text(encoding="utf-8")
    page.write_text(page.read_text(encoding="utf-8").replace("河湾路", "海滨路"), encoding="utf-8")
    applied = _run(neo4j_target, "user", "apply", "lin", str(page), "-t", t)
    assert applied.returncode == 0, applied.stderr
    assert store.as_of("lin", "home_address").value == "海滨路"
    assert _run(neo4j_target, "user", "apply", "lin", "-", "-t", t, stdin="- home_address 海滨路\n").returncode == 1
    for cmd in (["context"], ["summary"], ["user", "show"], ["user", "apply"]):
        helped = _run(neo4j_target, *cmd, "--help")
        assert helped.returncode == 0 and "Example:" in helped.stdout
