"""What an agent receives from ``store.context(...)``: a :class:`MemoryContext`, and its text.

Every item says what holds, for whom, when (valid interval), how we know (source, ledger
version), with which authority and status, and what to be careful about (warnings). Its text — rendered and
fitted to the budget — comes from :mod:`graphmem.recall.context_text`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from .budget import TOKENIZER

__all__ = ["Card", "ContextItem", "Gap", "ItemWarning", "LeftOut", "MemoryContext", "Rule", "SourceRef", "SummaryView"]

WarningKind = Literal["stale", "inferred", "candidate", "conflicting", "expiring", "quoted", "session", "superseded",
                      "expired", "gap", "not_yet_valid", "relayed"]
EXCERPT_CHARS = 600


class ItemWarning(BaseModel):
    kind: WarningKind
    message: str


class SourceRef(BaseModel):
    id: str
    kind: str | None = None
    at: datetime | None = None
    author: str | None = None
    text: str | None = Field(default=None, description="the excerpt shown (fenced when rendered)")
    truncated_from: int | None = Field(default=None, description="full length when the excerpt is cut")
    span: str | None = Field(default=None, description="the quoted span the fact was drawn from (evidence)")
    quoted_by: list[str] = Field(default_factory=list, description="newer sources that quote this one")
    relayed_by: str | None = Field(default=None, description="the agent that relayed its words (graphmem.core.relay)")


class ContextItem(BaseModel):
    """One thing the agent should know: a current fact, a conflict, a quoted old claim, a fact that
    no longer holds but answers a question about the past (``history``), or something said
    (``message``: the source text itself, with its speaker as ``subject`` and no topic)."""

    kind: Literal["fact", "conflict", "quoted", "history", "message"]
    subject: str
    topic: str = ""
    env: str = ""
    value: Any = None
    conflict: list[Any] | None = None
    is_entity: bool = False
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    recorded_at: datetime | None = None
    expires_at: datetime | None = None
    authority: str | None = None
    status: str | None = None
    confidence: float | None = None
    version: int | None = Field(default=None, description="ledger sequence number of the asserting event")
    fact: str | None = None
    source: SourceRef | None = None
    relayed_by: str | None = Field(default=None, description="the agent that relayed the source's words as the "
                                   "user's (graphmem.core.relay); the item warns and its line says so")
    warnings: list[ItemWarning] = Field(default_factory=list)
    score: float = 0.0
    legs: list[str] = Field(default_factory=list, description="which retrieval legs found it, with rank")
    session: str | None = Field(default=None, description="the session a message was said in")
    drawn: list[str] = Field(default_factory=list, description="facts drawn from a message, folded under it")

    @property
    def label(self) -> str:
        if self.kind == "message":
            return f"message {self.source.id if self.source else '?'}"
        return f"{self.subject} · {self.topic}" + (f" [{self.env}]" if self.env else "")


class Rule(BaseModel):
    """An L4 workflow's current, owner-approved version: binding."""

    name: str
    version: int | None = None
    text: str | None = None
    safety: bool = False


class Card(BaseModel):
    """An L3 experience card: advice only."""

    uid: str
    problem_signature: str | None = None
    area: str | None = None
    recommended_steps: list[str] = Field(default_factory=list)
    avoid_steps: list[str] = Field(default_factory=list)
    preconditions: list[str] = Field(default_factory=list)
    confidence: float | None = None
    conflicts_with: list[str] = Field(default_factory=list)


class SummaryView(BaseModel):
    """A deterministic summary (a derived copy) and the ledger version it was built at."""

    subject: str
    topic: str = "*"
    text: str
    version: int
    facts: list[str] = Field(default_factory=list)
    rebuilt: bool = False
    was_stale: bool = False
    changes_at: datetime | None = None  # its content changes by itself then (stale from then on)


class Gap(BaseModel):
    """A topic the task needs with no decisive value (graphmem.recall.gaps): nothing holds, sources
    conflict, the value is about to end, or values of competing scopes hold at once (home vs the
    trip's lodging). The agent should ask ``question`` instead of choosing."""

    need: str = Field(description="what the task needs: a need's name (destination) or a topic")
    subject: str
    kind: Literal["missing", "conflict", "expiring", "competing"]
    at: datetime | None = Field(default=None, description="the valid time the gap was judged at")
    options: list[dict[str, Any]] = Field(default_factory=list, description="{topic, value, valid_from, valid_to, source}")
    message: str
    question: str

    @property
    def topic(self) -> str:
        return self.need


class LeftOut(BaseModel):
    what: str
    reason: str
    tokens: int | None = None


class MemoryContext(BaseModel):
    """The one read step of an agent (docs/design.md §6)."""

    task: str
    tenant: str
    subject: str | None = None
    env: str | None = None
    session: str | None = None
    valid_at: datetime
    known_at: datetime
    named_range: tuple[datetime, datetime] | None = Field(
        default=None, description="[start, end) the task's words named when valid_at was read from them "
                                  "(graphmem.recall.task_time.question_time); None when valid_at was given or "
                                  "the task names no time")
    ledger_version: int
    items: list[ContextItem] = Field(default_factory=list)
    working: list[Any] = Field(default_factory=list, description="this session's working-memory items, shown first")
    gaps: list[Gap] = Field(default_factory=list, description="what the task needs and memory cannot decide: ask")
    failed_legs: list[str] = Field(default_factory=list, description="legs that failed; the context is degraded")
    rules: list[Rule] = Field(default_factory=list)
    cards: list[Card] = Field(default_factory=list)
    summary: SummaryView | None = None
    left_out: list[LeftOut] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    budget_tokens: int
    used_tokens: int = 0
    tokenizer: str = TOKENIZER
    text: str = Field(default="", description="the rendering that was fitted to the budget")

    def render(self) -> str:
        """The context as prompt text, exactly as fitted to ``budget_tokens``."""
        return self.text
