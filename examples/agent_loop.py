"""A scripted agent (no LLM) running one multi-step task on graphmem's working memory.

The task: "send lin's package on Oct 5". The agent keeps its turns, tool results and decisions in
the session's working memory, checkpoints after every step, asks when the context reports a gap
(lin is on a trip that day: home or the hotel?), and at the end closes the session through the end
gate, which writes what it learned to long-term memory and records the outcome for playbooks.

Kill it at any point (``kill -9``) and run it again with the same ``--session``: it resumes from its
last checkpoint, and steps it repeats add nothing twice (every item has an idempotency id).

    graphmem server start
    python examples/agent_loop.py --tenant demo --session pkg-1
    python examples/agent_loop.py --tenant demo --session pkg-2 --hang-after-add 3   # then kill -9 it, rerun

Needs a Neo4j (NEO4J_URI, default the local server).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from graphmem import GraphMem, examples

TASK = "where should I send lin's package on Oct 5?"
WHEN = "2026-10-05"  # the day the task is about (the shared scenario's trip)


def say(line: str) -> None:
    print(line, flush=True)


def seed(mem: GraphMem) -> None:
    """lin's long-term memory: the shared scenario (moved to 河湾路; a trip Oct 3–7, 海星酒店)."""
    if mem.as_of("lin", "home_address").value is not None:
        return
    scenario = next(s for s in json.loads(examples.path("scenarios.json").read_text(encoding="utf-8"))
                    if s["id"] == "address-move-trip-quote")
    mem.apply_many(scenario["events"])


def user_answers(question: str) -> str:
    """The scripted user: asked where the package goes, picks the hotel."""
    return "Send it to the hotel, 海星酒店, I am there until Oct 7."


def step_0(w: Any) -> None:
    w.add("Please send my package on Oct 5, it has the contract in it.", id="s0-ask", role="user", author="lin",
          importance=0.9)
    w.add("Send the package for lin on Oct 5.", type="todo", id="s0-todo", importance=0.6)


def step_1(w: Any) -> None:
    ctx = w.context(TASK, valid_at=WHEN, budget_tokens=1200)
    gaps = [g for g in ctx.gaps if g.need == "destination"]
    if gaps:
        say(f"gap: {gaps[0].kind}: " + " vs ".join(f"{o['topic']}={o['value']}" for o in gaps[0].options))
        say(f"ASK: {gaps[0].question}")
        w.add(gaps[0].question, id="s1-question", role="agent", author="agent", importance=0.7)
        answer = user_answers(gaps[0].question)
        say(f"USER: {answer}")
        w.add(answer, id="s1-answer", role="user", author="lin", importance=1.0)
    else:
        say("no gap: memory decides the destination")


def step_2(w: Any) -> None:
    w.add("courier quote: same-day to 海城 海星酒店, 38 CNY, pickup 10:00", type="tool_result", id="s2-quote",
          source="courier-quote-1", importance=0.6)


def step_3(w: Any) -> None:
    w.add("Deliver to the hotel while lin is on the trip.", type="decision", id="s3-decision", author="agent",
          cites=["s2-quote"], claim={"subject": "lin", "topic": "delivery_address", "value": "海星酒店"},
          importance=0.8)


def step_4(w: Any) -> None:
    w.add("use courier account demo-acct for this one shipment", type="instruction", id="s4-param", temporary=True)
    w.add("Booked the courier for 10:00 pickup.", role="agent", id="s4-booked", author="agent", importance=0.5)


STEPS = [step_0, step_1, step_2, step_3, step_4]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tenant", default="agent-loop")
    p.add_argument("--session", default="pkg-1")
    p.add_argument("--budget", type=int, default=2000)
    p.add_argument("--hang-after-add", type=int, default=None,
                   help="after adding step N's items, before its checkpoint, hang (a test kills the process here)")
    args = p.parse_args(argv)
    with GraphMem(tenant=args.tenant, actor="agent") as mem:
        seed(mem)
        w = mem.working(args.session, budget_tokens=args.budget)
        resumed = w.resume()
        if resumed.status == "closed":
            say(f"session {args.session} is already closed")
            return 0
        start = resumed.state["step"] + 1 if resumed.state else 0
        say(f"resume: status={resumed.status} next_step={start} items={len(resumed.items)}")
        for n in range(start, len(STEPS)):
            STEPS[n](w)
            if args.hang_after_add == n:
                say(f"hanging after step {n}'s items")
                time.sleep(600)
            w.checkpoint({"step": n, "done": [f.__name__ for f in STEPS[:n + 1]]}, id=str(n))
            say(f"step {n} done")
        report = w.close("success", task="send-package", steps=["check memory", "ask destination", "book courier"])
        say(f"closed: stated={len(report.stated)} inferred={len(report.inferred)} sources={report.sources} "
            f"dropped={len(report.dropped)}")
        # the decision was for this task: it holds while the task ran, and is no standing address
        made = next(i.created_at for i in w.items(include_evicted=True) if i.id == "s3-decision")
        during = mem.as_of("lin", "delivery_address", valid_at=made, include_candidates=True)
        now = mem.as_of("lin", "delivery_address", include_candidates=True)
        say(f"long-term: delivery_address during the task={during.value} ({during.authority} {during.status}), "
            f"now={now.value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
