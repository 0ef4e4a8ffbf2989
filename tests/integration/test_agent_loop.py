"""examples/agent_loop.py runs; killed with SIGKILL mid-task, it resumes from its last checkpoint
with nothing lost and nothing duplicated."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from graphmem import GraphMem

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "agent_loop.py"
ITEMS = ["s0-ask", "s0-todo", "s1-question", "s1-answer", "s2-quote", "s3-decision", "s4-param", "s4-booked"]


def _env(settings) -> dict[str, str]:
    env = dict(os.environ, NEO4J_URI=settings.uri, PYTHONUNBUFFERED="1")
    if settings.password is not None:
        env["NEO4J_PASSWORD"] = settings.password.get_secret_value()
    if settings.database:
        env["NEO4J_DATABASE"] = settings.database
    return env


def _run(settings, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXAMPLE), *args], env=_env(settings), capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture
def tenant(neo4j_target, driver):
    name = f"test-{uuid.uuid4().hex[:10]}"
    yield name
    GraphMem(neo4j_target.settings, tenant=name, driver=driver, install_schema=False).drop_tenant()


def test_the_example_runs_end_to_end(neo4j_target, tenant):
    out = _run(neo4j_target.settings, "--tenant", tenant, "--session", "pkg")
    assert out.returncode == 0, out.stderr
    assert "gap: competing" in out.stdout and "ASK:" in out.stdout and "USER:" in out.stdout
    assert "closed:" in out.stdout
    # the task's decision is history of the task, not a standing candidate a later task inherits
    assert "delivery_address during the task=海星酒店 (L2 candidate), now=None" in out.stdout


def _working_events(mem: GraphMem, session: str) -> list[dict]:
    out = []
    for e in mem.events():
        if e["op"] == "working":
            p = json.loads(e["payload"])
            if p["session"] == session:
                out.append({**p, "event_id": e["event_id"]})
    return out


@pytest.mark.parametrize("hang", [True, False], ids=["inside-a-step", "anywhere-after-step-1"])
def test_a_killed_agent_resumes_from_its_checkpoint_with_nothing_lost_or_duplicated(neo4j_target, driver, tenant,
                                                                                     hang):
    args = ["--hang-after-add", "3"] if hang else []
    proc = subprocess.Popen([sys.executable, str(EXAMPLE), "--tenant", tenant, "--session", "crash", *args],
                            env=_env(neo4j_target.settings), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    stop_at = "hanging after step 3" if hang else "step 1 done"
    try:
        seen = []
        for line in proc.stdout:  # type: ignore[union-attr]
            seen.append(line.strip())
            if line.startswith(stop_at):
                break
        assert stop_at in seen[-1], seen
        proc.send_signal(signal.SIGKILL)  # mid-task: wherever the agent is (hang: step 3's items in, no checkpoint)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    mem = GraphMem(neo4j_target.settings, tenant=tenant, driver=driver, install_schema=False)
    before = mem.working("crash").resume()
    if hang:
        assert before.status == "open" and before.state["step"] == 2
        assert "s3-decision" in {i.id for i in before.items}
    else:
        assert before.state["step"] >= 1

    out = _run(neo4j_target.settings, "--tenant", tenant, "--session", "crash")
    assert out.returncode == 0, out.stderr
    if before.status == "open":
        assert f"resume: status=open next_step={before.state['step'] + 1}" in out.stdout
        assert "step 0 done" not in out.stdout and "closed:" in out.stdout

    events = _working_events(mem, "crash")
    adds = [e["detail"]["id"] for e in events if e["action"] == "add"]
    assert sorted(adds) == sorted(ITEMS), "an item lost or added twice"
    checkpoints = [e["detail"]["state"]["step"] for e in events if e["action"] == "checkpoint"]
    assert checkpoints == [0, 1, 2, 3, 4], "a checkpoint lost or repeated"
    assert [e["action"] for e in events].count("close") == 1
    outcomes = driver.execute_query("MATCH (o:Outcome {tenant: $t}) RETURN count(o) AS n", t=tenant).records
    assert outcomes[0]["n"] == 1, "the outcome recorded twice"
    items = mem.working("crash").items(include_evicted=True)
    assert sorted(i.id for i in items) == sorted(ITEMS)
    assert mem.working("crash").resume().status == "closed"
    assert mem.verify(replay=False)["chain_ok"]
