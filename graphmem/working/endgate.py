"""The task end gate: ``mem.working(session).close(outcome)`` turns what a session learned into
long-term memory through the normal paths, and nothing else (docs/design.md §5):

* a **user's turn** is a person's own words: it goes through the extractor as a ``message`` (L1,
  the message its source) — unless it is noise: an acknowledgement ("ok", "thanks"), or a single
  word that answers nothing. A short reply to the agent's question ("Paris", right after "Where
  should it go?") is an answer, not noise: it is kept as the user's message;
* a **decision** or **hypothesis** is the agent's inference: an L2 *candidate* — its ``claim``
  ``{subject, topic, value}`` as a ``set``, or its text through the extractor with
  ``drawn_as="inferred"`` — by the agent, until a person confirms it. A decision's claim is the
  agent's choice *for this task* ("deliver to the hotel while lin is away"): it holds from when it
  was made until the task closed — history, never a standing value a later task inherits —
  unless its text says it stands ("from now on", "always", "以后"), when it is open-ended. A
  hypothesis is a belief about the world and stays open-ended;
* a **tool result** becomes a source (``kind: tool``) only when a kept decision or hypothesis
  cites it; it asserts nothing itself;
* instructions, todos, summaries, the agent's own turns and items marked ``temporary`` (task
  parameters) are dropped, each with its reason in the report.

Every text is checked against the configured secret patterns first (graphmem.governance.sensitive): in
``refuse`` mode one secret refuses the whole close before anything is written. The outcome is
recorded for playbooks (an L3 card is drafted after a failure then a success) and the session's
``close`` event is written last, so a close interrupted half-way can simply be run again: every
write has an idempotency id.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, Field

from ..core.errors import NotFoundError, ValidationError
from ..core.models import check_ids
from ..store.ops import Plan, apply
from ..governance.sensitive import SensitiveConfig, scrub, scrub_obj
from .working_store import item_source_id, wm_id

__all__ = ["CloseReport", "close", "is_noise", "task_bound"]

_NOISE = re.compile(r"^\s*(ok(ay)?|thanks?( you)?|thx|sure|yes|no|yep|nope|hi|hello|hey|got it|cool|great|"
                    r"fine|right|好的?|谢谢|嗯+|是的?|对|行)\s*[.!?。！？~]*\s*$", re.IGNORECASE)


# A decision whose text says it outlasts the task: its claim stays open-ended (see the module).
_STANDING = re.compile(r"\b(from now on|going forward|always|every time|by default|permanently|for good)\b"
                       r"|以后|今后|从现在起|一直|默认|永久", re.IGNORECASE)


def task_bound(item: Any, ended: datetime) -> dict[str, Any]:
    """The validity a claim of ``item`` gets: a decision made for this task holds from when it was
    made until the task ``ended``; a standing decision or a hypothesis is open-ended ({})."""
    if item.type != "decision" or _STANDING.search(item.text) or item.created_at is None:
        return {}
    return {"valid_from": item.created_at, "valid_to": max(ended, item.created_at + timedelta(microseconds=1))}


def is_noise(text: str, *, answers_question: bool = False) -> bool:
    """Acknowledgements and greetings carry nothing worth remembering; nor does a lone word —
    unless it answers a question the agent just asked (``answers_question``), when the word is the
    answer ("Paris" to "Which city?"). An acknowledgement is noise even then ("ok")."""
    if _NOISE.match(text):
        return True
    short = len(text.split()) < 2 and not re.search(r"[\u4e00-\u9fff]{2}", text)
    return short and not answers_question


def asks(item: Any) -> bool:
    """The agent's turn asks the user something (it has a question mark)."""
    return item.type == "turn" and item.role != "user" and bool(re.search(r"[?？]", item.text))


def _answers(items: list[Any]) -> set[str]:
    """User turns that come right after an agent's question (the turns in the session's order)."""
    turns = sorted((i for i in items if i.type == "turn"), key=lambda i: (i.seq, i.id))
    return {b.id for a, b in zip(turns, turns[1:]) if b.role == "user" and asks(a)}


class CloseReport(BaseModel):
    """What the end gate wrote, and what it dropped and why."""

    session: str
    outcome: str
    task: str
    stated: list[dict[str, Any]] = Field(default_factory=list, description="user turns ingested (L1)")
    inferred: list[dict[str, Any]] = Field(default_factory=list, description="agent inferences (L2 candidates)")
    sources: list[str] = Field(default_factory=list, description="tool results kept as sources")
    dropped: list[dict[str, str]] = Field(default_factory=list)
    masked: list[str] = Field(default_factory=list, description="items whose text had secrets masked")
    card: dict[str, Any] | None = Field(default=None, description="an L3 card the outcome drafted")
    duplicate: bool = False


def _check(outcome: Any, steps: Any, errors: Any, wrong_memory: Any) -> None:
    if outcome not in ("success", "failure"):
        raise ValidationError("outcome is 'success' or 'failure'")
    for name, v in (("steps", steps), ("errors", errors), ("wrong_memory", wrong_memory)):
        if v is not None and (not isinstance(v, list) or not all(isinstance(x, str) and x for x in v)):
            raise ValidationError(f"{name} must be a list of non-empty strings")
    check_ids(**{f"wrong_memory[{i}]": f for i, f in enumerate(wrong_memory or [])})


def _plan_writes(session: str, items: list[Any], actor: str, cfg: SensitiveConfig,
                 report: CloseReport, ended: datetime) -> list[tuple[str, dict[str, Any]]]:
    """Every long-term write, decided and scrubbed before the first one is made."""
    kept_inferences = [i for i in items if i.type in ("decision", "hypothesis") and not i.temporary]
    cited = {c for i in kept_inferences for c in i.cites}
    writes: list[tuple[str, dict[str, Any]]] = []
    tool_source: dict[str, str] = {}
    answers = _answers(items)

    def clean(item: Any, text: str) -> str:
        out, found = scrub(text, cfg, f"item {item.id}")
        if found and item.id not in report.masked:
            report.masked.append(item.id)
        return out

    for it in items:
        if it.type == "tool_result" and not it.temporary:
            if it.id not in cited:
                report.dropped.append({"item": it.id, "reason": "tool result no kept decision cites"})
                continue
            sid = it.source or item_source_id(session, it.id)
            tool_source[it.id] = sid
            writes.append(("source", {"op": "source", "id": sid, "kind": "tool", "at": it.created_at,
                                       "text": clean(it, it.text), "author": it.author}))
            report.sources.append(sid)
    for it in items:
        why = ("a temporary parameter" if it.temporary else
               "task-local (instruction/todo)" if it.type in ("instruction", "todo") else
               "derived: a summary of items handled one by one" if it.type == "summary" else
               "the agent's own turn" if it.type == "turn" and it.role != "user" else
               "noise" if it.type == "turn" and is_noise(it.text, answers_question=it.id in answers) else None)
        if it.type == "tool_result":
            continue
        if why is not None:
            report.dropped.append({"item": it.id, "reason": why})
            continue
        mid = item_source_id(session, it.id)
        if it.type == "turn":
            writes.append(("stated", {"op": "message", "id": mid, "at": it.created_at, "speaker": it.author or "user",
                                      "text": clean(it, it.text), "session": session, "item": it.id,
                                      **({"relayed_by": it.relayed_by} if it.relayed_by else {})}))
        elif it.claim is not None:
            claim, found = scrub_obj(it.claim, cfg, f"item {it.id}")
            if found and it.id not in report.masked:
                report.masked.append(it.id)
            src = next((tool_source[c] for c in it.cites if c in tool_source), None)
            if src is None:
                writes.append(("source", {"op": "source", "id": mid, "kind": "message", "at": it.created_at,
                                          "text": clean(it, it.text), "author": it.author or actor}))
                src = mid
            writes.append(("inferred", {"op": "set", "id": "wm-claim:" + wm_id(session, it.id), "subject": claim["subject"],
                                        "topic": claim["topic"], "value": claim["value"], "authority": "L2",
                                        "status": "candidate", "source": src, "item": it.id,
                                        **task_bound(it, ended)}))
        else:
            writes.append(("inferred", {"op": "message", "id": mid, "at": it.created_at,
                                        "speaker": it.author or actor, "text": clean(it, it.text),
                                        "session": session, "drawn_as": "inferred", "item": it.id}))
    return writes


def close(store: Any, session: str, outcome: str, *, task: str | None, steps: list[str] | None,
          errors: list[str] | None, wrong_memory: list[str] | None, area: str | None,
          sensitive: SensitiveConfig) -> Plan[CloseReport]:
    """The end gate as one plan (see the module docstring)."""
    from ..store import observe
    from ..playbooks.playbooks import PlaybookPlans
    from .working_store import items as load_items
    from .working_store import record, session_row

    _check(outcome, steps, errors, wrong_memory)
    tenant = store.tenant
    row = yield from session_row(tenant, session)
    if row is None:
        raise NotFoundError(f"no working session {session!r} in this tenant", kind="working session", id=session)
    if row["status"] == "closed":
        done = json.loads(row["report"] or "{}")
        return CloseReport(**{**done, "duplicate": True}) if done else CloseReport(
            session=session, outcome=row["outcome"] or outcome, task=task or session, duplicate=True)
    found = yield from load_items(tenant, session)
    # What the outcome record and its card keep is long-term too: scrubbed (or refused) like the items.
    task, _ = scrub_obj(task or session, sensitive, "the task")
    steps, _ = scrub_obj(steps, sensitive, "the steps") if steps else (steps, [])
    errors, _ = scrub_obj(errors or [], sensitive, "the errors")
    report = CloseReport(session=session, outcome=outcome, task=task)
    writes = _plan_writes(session, found, store.actor, sensitive, report, store._clock())  # refuses before any write
    for kind, ev in writes:
        item = ev.pop("item", None)
        result = yield from apply(tenant, ev, store._clock(), store._extract, store.actor)
        if kind == "stated":
            report.stated.append({"item": item, "message": ev["id"], "facts": result.facts})
        elif kind == "inferred":
            report.inferred.append({"item": item, "facts": result.facts})
    observe.extraction_yield(tenant, session, len(report.stated) + len(report.inferred),
                             sum(len(x["facts"]) for x in report.stated + report.inferred))
    done_steps = steps or [scrub(" ".join(i.text.split()[:8]), sensitive, "a decision")[0]
                           for i in found if i.type == "decision"] or ["(no steps)"]
    card = yield from PlaybookPlans(store)._record(task, done_steps, outcome, errors, area, store.actor,
                                               uid=f"o-wm-{hashlib.sha256(session.encode()).hexdigest()[:24]}")
    report.card = None if card is None else dict(card)
    yield from record(tenant, session, "close", {
        "outcome": outcome, "task": task, "wrong_memory": wrong_memory or [],
        "report": report.model_dump(mode="json", exclude={"duplicate"})}, store._clock(), store.actor)
    return report
