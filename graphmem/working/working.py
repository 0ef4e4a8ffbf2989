"""Working memory (L0 of the agent's loop): what one session is doing right now — its turns, tool
results, decisions, hypotheses, instructions, todos and summaries — under a hard token budget,
with checkpoints a restarted agent resumes from, and an end gate (:meth:`WorkingPlans.close`)
that turns what the session learned into long-term memory.

Each operation is defined once, as a method of :class:`WorkingPlans` that checks its arguments and
returns a plan (graphmem.working.working_store). ``mem.working(session)`` gives the face that runs
them, generated from this class by graphmem.store.facegen into graphmem.working.faces:
:class:`~graphmem.working.faces.WorkingMemory` on :class:`~graphmem.store.client.GraphMem` (each
method returns its value), :class:`~graphmem.working.faces.AsyncWorkingMemory` on
:class:`~graphmem.store.aio.AsyncGraphMem` (``await`` each method).
Nothing lives only in process memory: every step is a ledger event with an actor, so a second
process sees the same session, ``rebuild`` replays it and ``erase`` removes it.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..core.errors import ValidationError
from ..core.models import check_ids
from ..core.fields import check_json
from ..store.ops import Plan

if TYPE_CHECKING:
    from ..core.models import WriteResult
    from ..governance.sensitive import SensitiveConfig
    from ..recall.memory_context import MemoryContext
    from ..recall.recall_config import RecallConfig
    from .endgate import CloseReport

__all__ = ["AddResult", "ItemType", "Resumed", "WorkingItem", "WorkingPlans", "WorkingPolicy"]

ItemType = Literal["turn", "tool_result", "decision", "hypothesis", "instruction", "todo", "summary"]
Role = Literal["user", "agent", "tool", "system"]
MAX_STATE_CHARS = 64_000
# A turn is the agent's unless it is said to be a person's (role="user"): only a person's own words
# become L1 facts at the end gate (docs/design.md §5), so nothing is taken for a person's by default.
_DEFAULT_ROLE = {"turn": "agent", "tool_result": "tool", "decision": "agent", "hypothesis": "agent",
                 "instruction": "user", "todo": "agent", "summary": "system"}


class WorkingPolicy(BaseModel):
    """A session's budget: how many tokens its items may hold, what happens when they would hold
    more (``evict`` the lowest-importance, least recently used items; or ``compress`` a run of older
    turns into one summary item that cites them), and when to warn."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    budget_tokens: int = Field(2000, ge=64, le=1_000_000)
    strategy: Literal["evict", "compress"] = "compress"
    warn_ratio: float = Field(0.8, gt=0.0, le=1.0)
    keep_recent: int = Field(2, ge=0, le=50, description="the newest turns are never compressed")
    summary_ratio: float = Field(0.25, gt=0.0, le=0.9, description="a summary holds at most this share of the budget")


class WorkingItem(BaseModel):
    """One item of a session's working memory."""

    id: str
    session: str
    type: ItemType
    role: Role | None = None
    author: str | None = None
    text: str
    importance: float = 0.5
    tokens: int = 0
    seq: int = 0
    created_at: datetime | None = None
    last_used_at: datetime | None = None
    cites: list[str] = Field(default_factory=list, description="items this one cites (a summary: those it replaced)")
    covers: list[str] = Field(default_factory=list, description="a summary: every original item it stands for")
    claim: dict[str, Any] | None = Field(default=None, description="a decision/hypothesis as {subject, topic, value}")
    temporary: bool = Field(default=False, description="a temporary parameter: never written to long-term memory")
    source: str | None = Field(default=None, description="a tool result's source id")
    relayed_by: str | None = Field(default=None, description="a user turn an agent relayed: that agent "
                                   "(the message the end gate writes carries it, graphmem.core.relay)")
    evicted_at: datetime | None = None
    evict_reason: str | None = None
    replaced_by: str | None = None


class AddResult(BaseModel):
    """What an add did: the item, the tokens in use after it, the warning at the policy's
    threshold, what the budget evicted and the summary that replaced a run of turns."""

    item: WorkingItem
    duplicate: bool = False
    used_tokens: int
    used_with_new: int = 0
    budget_tokens: int
    warning: str | None = None
    evicted: list[str] = Field(default_factory=list)
    summary: WorkingItem | None = None


class Resumed(BaseModel):
    """A session as a restarted agent finds it: the last checkpoint's state, the live items."""

    session: str
    status: Literal["new", "open", "closed"]
    state: Any = None
    checkpoint_seq: int | None = None
    checkpoints: int = 0
    items: list[WorkingItem] = Field(default_factory=list)
    used_tokens: int = 0
    policy: WorkingPolicy | None = None


def _spec(text: Any, type: Any, role: Any, author: Any, importance: Any, id: Any, cites: Any, claim: Any,
          temporary: Any, source: Any, relayed_by: Any = None) -> dict[str, Any]:
    """An add's arguments checked before anything is written."""
    if type not in _DEFAULT_ROLE:
        raise ValidationError(f"unknown item type {type!r}; expected one of {', '.join(_DEFAULT_ROLE)}")
    if type == "summary":
        raise ValidationError("summary items are made by the compress strategy, not added")
    if not isinstance(text, str) or not text.strip():
        raise ValidationError("an item needs non-empty text")
    check_json(text, "an item's text")
    if role is not None and role not in ("user", "agent", "tool", "system"):
        raise ValidationError("role is one of user, agent, tool, system")
    if isinstance(importance, bool) or not isinstance(importance, (int, float)) or not 0 <= importance <= 1:
        raise ValidationError("importance is a number from 0 to 1")
    cites = list(cites or [])
    check_ids(author=author, id=id, source=source, relayed_by=relayed_by,
              **{f"cites[{i}]": c for i, c in enumerate(cites)})
    if claim is not None:
        if not isinstance(claim, dict) or not {"subject", "topic", "value"} <= set(claim):
            raise ValidationError("a claim is {subject, topic, value}")
        check_json(claim, "a claim")
        check_ids(subject=claim["subject"], topic=claim["topic"])
    return {"id": id or f"i-{uuid.uuid4().hex[:10]}", "type": type, "role": role or _DEFAULT_ROLE[type],
            "author": author, "text": text, "importance": float(importance), "cites": cites, "claim": claim,
            "temporary": bool(temporary), "source": source,
            **({"relayed_by": relayed_by} if relayed_by else {})}  # only when given: older adds' detail unchanged


class WorkingPlans:
    """One session's working-memory operations on a store, each defined once: a method that checks
    its arguments and returns the plan; the faces of graphmem.working.faces run them (see the
    module docstring)."""

    def __init__(self, store: Any, session: str, policy: WorkingPolicy | None = None) -> None:
        check_ids(session=session)
        self._store = store
        self.session = session
        self.policy = policy

    @property
    def _sensitive(self) -> SensitiveConfig:
        from ..governance.sensitive import SensitiveConfig
        config: SensitiveConfig = getattr(self._store, "sensitive", None) or SensitiveConfig.from_env()
        return config

    def add(self, text: str, *, type: ItemType = "turn", role: Role | None = None, author: str | None = None,
            importance: float = 0.5, id: str | None = None, cites: list[str] | None = None,
            claim: dict[str, Any] | None = None, temporary: bool = False,
            source: str | None = None, relayed_by: str | None = None) -> Plan[AddResult]:
        """Add an item; if the session's budget would overflow, compress or evict in the same
        transaction. ``id`` is an idempotency id: a resumed agent repeating a step adds nothing.
        ``relayed_by``: a user's turn an agent relayed (the user did not send it): the message the
        end gate keeps of it says so, as every answer drawn from it does (graphmem.core.relay).
        Secrets matching the configured patterns are masked (or refused) before the ledger sees them."""
        from ..store import observe
        from ..governance.sensitive import scrub, scrub_obj
        spec = _spec(text, type, role, author, importance, id, cites, claim, temporary, source, relayed_by)
        spec["text"], found = scrub(spec["text"], self._sensitive, "the item's text")
        if spec["claim"] is not None:
            spec["claim"], more = scrub_obj(spec["claim"], self._sensitive, "the item's claim")
            found += more
        if found:
            spec["masked"] = sorted(set(found))
        from .working_store import add
        store = self._store

        def shape(out: dict[str, Any]) -> AddResult:
            policy = out["policy"]
            result = AddResult(item=out["item"], duplicate=out["duplicate"], used_tokens=out["used"],
                               used_with_new=out.get("used_with_new", out["used"]),
                               budget_tokens=policy.budget_tokens, warning=out["warning"], evicted=out["evicted"],
                               summary=out["summary"])
            observe.working_add(store.tenant, self.session, result)
            return result
        return observe.observed_plan("working_add", store.tenant, observe.mapped(add(
            store.tenant, self.session, spec, self.policy, store._clock(), store.actor), shape))

    def items(self, *, include_evicted: bool = False) -> Plan[list[WorkingItem]]:
        """The session's items in the order they were added (the live ones, unless asked)."""
        from .working_store import items

        def plan() -> Plan[list[WorkingItem]]:
            found = yield from items(self._store.tenant, self.session)
            return [i for i in found if include_evicted or i.evicted_at is None]
        return plan()

    def use(self, *ids: str) -> Plan[WriteResult]:
        """Record that the agent used these items (eviction spares recently used items); the
        ``use`` event's write result."""
        from .working_store import use
        from ..store import observe
        return observe.observed_plan("working_use", self._store.tenant, use(
            self._store.tenant, self.session, list(ids), self._store._clock(), self._store.actor))

    def checkpoint(self, state: dict[str, Any], *, id: str | None = None) -> Plan[WriteResult]:
        """Record the task's state (JSON-able) in the ledger; :meth:`resume` returns the latest.
        ``id`` makes a retried checkpoint apply once (its write result says ``duplicate``)."""
        from ..governance.sensitive import scrub_obj
        from .working_store import checkpoint
        if not isinstance(state, dict):
            raise ValidationError("a checkpoint's state is a JSON object (a dict)")
        check_json(state, "a checkpoint's state")  # depth, NaN, NUL, lone surrogates: refused here
        try:
            text = json.dumps(state, ensure_ascii=False, sort_keys=True)
        except (TypeError, ValueError) as e:
            raise ValidationError(f"a checkpoint's state must be JSON-able: {e}") from e
        if len(text) > MAX_STATE_CHARS:
            raise ValidationError(f"a checkpoint's state is limited to {MAX_STATE_CHARS} characters of JSON")
        check_ids(id=id)
        clean, _found = scrub_obj(json.loads(text), self._sensitive, "the checkpoint's state")
        from ..store import observe
        return observe.observed_plan("working_checkpoint", self._store.tenant, checkpoint(
            self._store.tenant, self.session, clean, self._store._clock(), self._store.actor, id))

    def resume(self) -> Plan[Resumed]:
        """Where a restarted agent picks the task up: the last checkpoint's state and the live items."""
        from .working_store import resume_state

        def plan() -> Plan[Resumed]:
            got = yield from resume_state(self._store.tenant, self.session)
            row, found = got["row"], [i for i in got["items"] if i.evicted_at is None]
            return Resumed(session=self.session, status=row["status"] if row else "new",
                           state=json.loads(row["checkpoint"]) if row and row.get("checkpoint") else None,
                           checkpoint_seq=row["checkpoint_seq"] if row else None,
                           checkpoints=row["checkpoints"] if row else 0, items=found,
                           used_tokens=sum(i.tokens for i in found), policy=got["policy"])
        return plan()

    def context(self, task: str, *, subject: str | None = None, env: str | None = None,
                valid_at: datetime | str | None = None, known_at: datetime | str | None = None,
                budget_tokens: int = 1500, include_candidates: bool = False, hops: int | None = None,
                limit: int | None = None, area: str | None = None, summary: bool = True, playbooks: bool = True,
                stale_after_days: int | None = None, expiring_within_days: int | None = None,
                config: RecallConfig | str | None = None, gaps: bool = True) -> Plan[MemoryContext]:
        """``store.context(task, session=this session, ...)``, and a ``context`` ledger event with the
        tokens it used (what ``graphmem stats`` reports as tokens per context). The keywords are the
        client's ``context`` keywords but ``session`` (this session's), with the same defaults.

        The session must exist and be open, checked before anything is read: an unknown session
        raises :class:`~graphmem.core.errors.NotFoundError` (a read never opens a session), a closed one
        :class:`~graphmem.core.errors.SessionClosedError` (``store.context(task, session=…)`` still reads
        a closed session, recording nothing). A close that lands between the read and its record
        leaves the read standing and records nothing: never a context read and then an error."""
        from ..store import observe
        from ..core.errors import NotFoundError, SessionClosedError
        from ..recall.recall import context
        from .working_store import record, session_row
        store = self._store

        def plan() -> Plan[MemoryContext]:
            row = yield from session_row(store.tenant, self.session)
            if row is None:
                raise NotFoundError(f"no working session {self.session!r} in this tenant: add an item or a "
                                    "checkpoint first (store.context(task, session=…) reads without one)",
                                    kind="working session", id=self.session)
            if row["status"] == "closed":
                raise SessionClosedError(f"working session {self.session!r} is closed; read it with "
                                         "store.context(task, session=…), which records nothing")
            ctx = yield from observe.observed_plan("context", store.tenant, context(
                store.tenant, store._clock(), task, embedder=store.embedder, session=self.session, subject=subject,
                env=env, valid_at=valid_at, known_at=known_at, budget_tokens=budget_tokens,
                include_candidates=include_candidates, hops=hops, limit=limit, area=area, summary=summary,
                playbooks=playbooks, stale_after_days=stale_after_days, expiring_within_days=expiring_within_days,
                config=config, gaps=gaps), observe.context_summary)
            yield from record(store.tenant, self.session, "context", {
                "used_tokens": ctx.used_tokens, "budget_tokens": ctx.budget_tokens, "left_out": len(ctx.left_out),
                "gaps": [g.topic for g in ctx.gaps]}, store._clock(), store.actor, only_open=True)
            return ctx
        return plan()

    def close(self, outcome: Literal["success", "failure"], *, task: str | None = None,
              steps: list[str] | None = None, errors: list[str] | None = None,
              wrong_memory: list[str] | None = None, area: str | None = None) -> Plan[CloseReport]:
        """The task end gate (graphmem.working.endgate): what the session learned goes to long-term memory
        through the normal paths, the outcome is recorded for playbooks, the session closes."""
        from ..store import observe
        from .endgate import close
        return observe.observed_plan("working_close", self._store.tenant, close(
            self._store, self.session, outcome, task=task, steps=steps, errors=errors, wrong_memory=wrong_memory,
            area=area, sensitive=self._sensitive))
