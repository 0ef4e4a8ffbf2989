"""The shapes of what ``mem.playbooks`` returns, as TypedDicts: plain dicts (JSON-ready, what the
CLI prints) whose keys are the properties of the graph nodes behind them (cypher/playbook/).
``total=False`` where a node gains properties over its life (a card's status change, a version's
approval) or where a query returns only some of them."""

from __future__ import annotations

from typing import Any, TypedDict

__all__ = ["Applicable", "Card", "Evidence", "Feedback", "Promotion", "Rule", "Workflow", "WorkflowSummary",
           "WorkflowVersion"]


class Evidence(TypedDict):
    """A recorded task outcome a card was drawn from."""

    uid: str
    steps: list[str]
    outcome: str
    errors: list[str]


class Card(TypedDict, total=False):
    """An L3 experience card (advice only): what to do and to avoid for a task signature."""

    uid: str
    signature: str
    problem_signature: str
    area: str
    preconditions: list[str]
    recommended_steps: list[str]
    avoid_steps: list[str]
    validation: list[str]
    confidence: float
    status: str  # draft, active, rejected, superseded
    version: int
    created_at: str
    conflicts_with: list[str]
    evidence: list[Evidence]  # card() only
    status_reason: str | None
    status_by: str | None
    status_at: Any


class WorkflowVersion(TypedDict, total=False):
    """One immutable, hashed version of an L4 workflow."""

    uid: str
    workflow: str
    number: int
    text: str
    scenario: str
    inputs: list[str]
    outputs: list[str]
    tool_permissions: list[str]
    validation_rules: list[str]
    forbidden_steps: list[str]
    required_steps: list[str]
    content_hash: str
    checked_hash: str
    check_passed: bool
    replay_passed: bool
    check_report: str
    status: str  # requested, approved, rejected
    from_card: str
    requested_by: str | None
    checked_at: str
    used: int
    succeeded: int
    failed: int
    regression: bool
    approvals: list[dict[str, Any]]


class Workflow(TypedDict, total=False):
    """An L4 workflow: its owner and delegates, the current version, every version (newest first)."""

    name: str
    owner: str
    delegates: list[str]
    safety: bool
    current_version: str | None
    created_at: Any
    versions: list[WorkflowVersion]


class WorkflowSummary(TypedDict):
    """A line of :meth:`~graphmem.playbooks.faces.Playbooks.workflows`."""

    name: str
    owner: str
    safety: bool
    current: int | None
    hash: str | None


class Promotion(TypedDict):
    """What a promotion request did: the version it added (requested, not current) and its checks."""

    workflow: Workflow
    version: str
    number: int
    check_passed: bool
    replay_passed: bool
    report: str


class Feedback(TypedDict):
    """A use of the current version counted: its counts and whether it regressed against the one it replaced."""

    uid: str
    used: int
    failed: int
    regression: bool
    old_rate: float


class Rule(TypedDict):
    """A binding L4 rule as context() lists it (the current version of a workflow)."""

    kind: str
    name: str
    safety: bool
    version: int
    text: str
    forbidden_steps: list[str]
    required_steps: list[str]
    card: None


class Applicable(TypedDict):
    """The rules (safety first) and at most three cards for a task area."""

    rules: list[Rule]
    cards: list[Card]
