"""``graphmem stats`` / ``mem.stats()``: how one tenant's memory behaves, for an operator.

State now: candidates waiting for a person, conflicts that hold now, stale summaries, open working
sessions. Activity since ``since`` (default: the last 30 days): ledger writes by op and author.
Quality, from recorded outcomes (the seed's figures):

* **task success rate** — successes / outcomes recorded (playbooks' outcomes, which every
  working-session close records too);
* **repeated failures** — tasks that failed twice or more in the window;
* **wrong-memory rate** — closed sessions whose feedback (``close(..., wrong_memory=[facts])``)
  says a remembered fact was wrong, over closed sessions;
* **tokens per context** — the mean tokens of the contexts working sessions read
  (``WorkingMemory.context``), with their mean budget and items the budget left out.

A rate with nothing to divide by is ``None``, never 0. The queries are ``cypher/stats/*.cypher``.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, Field

from ..core.models import parse_time
from ..store.ops import Plan, run_query

__all__ = ["Stats", "stats"]

DEFAULT_WINDOW = timedelta(days=30)


class Stats(BaseModel):
    """One tenant's figures (see the module docstring)."""

    tenant: str
    since: datetime
    at: datetime
    writes: dict[str, dict[str, int]] = Field(default_factory=dict, description="op -> author -> events")
    writes_total: int = 0
    candidates_waiting: int = 0
    conflicts_open: int = 0
    summaries_stale: int = 0
    working_sessions_open: int = 0
    outcomes: int = 0
    task_success_rate: float | None = None
    repeated_failures: dict[str, int] = Field(default_factory=dict, description="task -> failures (2 or more)")
    sessions_closed: int = 0
    wrong_memory_rate: float | None = None
    contexts: int = 0
    tokens_per_context: float | None = None
    budget_per_context: float | None = None
    items_dropped_per_context: float | None = None

    def text(self) -> str:
        """The figures as an operator reads them."""
        def pct(x: float | None) -> str:
            return "n/a" if x is None else f"{100 * x:.1f}%"
        lines = [f"tenant {self.tenant}: since {self.since.isoformat()} (at {self.at.isoformat()})",
                 f"  writes: {self.writes_total}"]
        for op, authors in sorted(self.writes.items()):
            lines.append(f"    {op}: " + ", ".join(f"{a} {n}" for a, n in sorted(authors.items())))
        lines += [f"  candidates waiting: {self.candidates_waiting}", f"  conflicts open: {self.conflicts_open}",
                  f"  summaries stale: {self.summaries_stale}",
                  f"  working sessions open: {self.working_sessions_open}",
                  f"  task success rate: {pct(self.task_success_rate)} of {self.outcomes} outcomes",
                  "  repeated failures: " + (", ".join(f"{t} ({n})" for t, n in self.repeated_failures.items())
                                             or "none"),
                  f"  wrong-memory rate: {pct(self.wrong_memory_rate)} of {self.sessions_closed} closed sessions",
                  "  tokens per context: " + ("n/a" if self.tokens_per_context is None else
                                              f"{self.tokens_per_context:.0f} of {self.budget_per_context:.0f} budget, "
                                              f"{self.items_dropped_per_context:.1f} items dropped, "
                                              f"{self.contexts} contexts")]
        return "\n".join(lines)


def _rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def stats(tenant: str, now: datetime, since: Any = None) -> Plan[Stats]:
    """The plan behind :func:`graphmem.store.surface.stats`."""
    start = parse_time(since) if since is not None else now - DEFAULT_WINDOW
    out = Stats(tenant=tenant, since=start, at=now)
    for r in (yield from run_query("stats/writes", tenant, since=start)):
        out.writes.setdefault(r["op"], {})[r["author"]] = r["n"]
        out.writes_total += r["n"]
    state = (yield from run_query("stats/state", tenant, now=now))[0]
    out.candidates_waiting, out.conflicts_open = state["candidates"], state["conflicts"]
    out.summaries_stale, out.working_sessions_open = state["stale_summaries"], state["open_sessions"]
    successes = 0
    for r in (yield from run_query("stats/outcomes", tenant, since=start)):
        out.outcomes += r["successes"] + r["failures"]
        successes += r["successes"]
        if r["failures"] >= 2:
            out.repeated_failures[r["task"]] = r["failures"]
    out.task_success_rate = _rate(successes, out.outcomes)
    wrong = used = budget = dropped = 0
    for r in (yield from run_query("stats/working_events", tenant, since=start)):
        p = json.loads(r["payload"])
        d = p.get("detail") or {}
        if p.get("action") == "close":
            out.sessions_closed += 1
            wrong += bool(d.get("wrong_memory"))
        elif p.get("action") == "context":
            out.contexts += 1
            used += int(d.get("used_tokens", 0))
            budget += int(d.get("budget_tokens", 0))
            dropped += int(d.get("left_out", 0))
    out.wrong_memory_rate = _rate(wrong, out.sessions_closed)
    if out.contexts:
        out.tokens_per_context = used / out.contexts
        out.budget_per_context = budget / out.contexts
        out.items_dropped_per_context = dropped / out.contexts
    return out
