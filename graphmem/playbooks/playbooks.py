"""Playbooks (docs/design.md §5, §7): L3 experience cards and L4 workflows, ``mem.playbooks``.

* **L3 experience cards** are drafted automatically from task outcomes by a deterministic drafter
  (:func:`~graphmem.playbooks.rules.draft_from_outcomes`): after a failure and then a success on
  the same task, what failed goes to ``avoid_steps`` and the path that worked to
  ``recommended_steps``. Cards are advice: low authority, rejectable, roll-backable, at most three
  per context, never binding. Their operations are here.
* **L4 workflows** are owned procedures with immutable, hashed versions: a card becomes one only
  by a checked request and the owner's approval (graphmem.playbooks.workflows holds those
  operations). There is no other path: ledger events cannot publish (``apply`` knows no such op),
  the CLI calls these methods, and no Cypher file sets ``current_version`` except ``approve`` and
  ``rollback``, both owner-guarded.

Each operation is defined once, as a method of :class:`PlaybookPlans` (or of its L4 base) that
checks its arguments and returns a plan. ``mem.playbooks`` is the face that runs them, generated
from these classes by graphmem.store.facegen into graphmem.playbooks.faces:
:class:`~graphmem.playbooks.faces.Playbooks` on GraphMem (each method returns its value),
:class:`~graphmem.playbooks.faces.AsyncPlaybooks` on AsyncGraphMem (``await`` each method).

The rules that need no store are graphmem.playbooks.rules; the shapes returned,
graphmem.playbooks.records; the shared plans, graphmem.playbooks.steps.
"""

from __future__ import annotations

import uuid
from typing import Any, cast

from ..core.errors import NotFoundError, ValidationError
from ..store.ops import Plan, run_query
from .records import Applicable, Card
from .rules import CheckReport, content_hash, draft_from_outcomes, replay, static_check
from .steps import MAX_CARDS, applicable, write_query
from .workflows import WorkflowPlans

__all__ = ["MAX_CARDS", "CheckReport", "PlaybookPlans", "applicable", "content_hash", "draft_from_outcomes", "replay",
           "static_check"]


class PlaybookPlans(WorkflowPlans):
    """The L3 and L4 operations for one store, each returning its plan (see the module docstring)."""

    # -- L3 --------------------------------------------------------------------------------------

    def record_outcome(self, task: str, steps: list[str], outcome: str, errors: list[str] | None = None, *,
                       area: str | None = None, actor: str | None = None) -> Plan[Card | None]:
        """Record how a task went; after a failure then a success, a card is drafted (returned)."""
        if outcome not in ("success", "failure"):
            raise ValidationError("outcome is 'success' or 'failure'")
        if not task or not isinstance(steps, list) or not all(isinstance(s, str) and s for s in steps):
            raise ValidationError("record_outcome needs a task and a list of step names")
        from ..store import observe
        return observe.observed_plan("playbook_outcome", self._tenant, self._record(
            task, steps, outcome, errors or [], area, actor), lambda card: {
                "outcome": outcome, "steps": len(steps), "card": card["uid"] if card else None},
            {"outcome": outcome})

    def _record(self, task: str, steps: list[str], outcome: str, errors: list[str], area: str | None,
                actor: str | None, uid: str | None = None) -> Plan[Card | None]:
        """Record an outcome (and draft a card from a success). ``uid``: an idempotency id — the
        same outcome recorded again (a rerun after a crash) is recorded and drafted from once."""
        tenant, at = self._tenant, self._now()
        rows = yield from write_query("playbook/outcome_add", tenant, uid=uid or f"o-{uuid.uuid4().hex[:12]}", task=task,
                                area=area or task, steps=steps, outcome=outcome, errors=errors, at=at, actor=actor)
        if not rows[0]["created"]:
            return None
        if outcome != "success":
            return None
        outcomes = yield from run_query("playbook/outcomes", tenant, task=task)
        draft = draft_from_outcomes(task, outcomes)
        if draft is None:
            return None
        return (yield from self._save_card(draft, area or task, at))

    def _save_card(self, draft: dict[str, Any], area: str, at: str) -> Plan[Card]:
        tenant = self._tenant
        n = (yield from run_query("playbook/card_versions", tenant, signature=draft["signature"]))[0]["n"]
        rows = yield from write_query("playbook/card_save", tenant, uid=f"c-{uuid.uuid4().hex[:12]}",
                                signature=draft["signature"], area=area, preconditions=draft["preconditions"],
                                recommended_steps=draft["recommended_steps"], avoid_steps=draft["avoid_steps"],
                                validation=draft["validation"], confidence=draft["confidence"],
                                evidence=draft["evidence"], version=n + 1, at=at)
        uid = rows[0]["uid"] if rows else None
        card = yield from self._card(uid)
        yield from self._ledger("draft", card["uid"], None, signature=draft["signature"], version=n + 1)
        return card

    def draft_card(self, signature: str, *, recommended_steps: list[str], avoid_steps: list[str] | None = None,
                   preconditions: list[str] | None = None, validation: list[str] | None = None,
                   evidence: list[str] | None = None, confidence: float = 0.5, area: str | None = None) -> Plan[Card]:
        """Draft a card explicitly (a person's lesson); still L3: advice only."""
        draft = {"signature": signature, "recommended_steps": recommended_steps, "avoid_steps": avoid_steps or [],
                 "preconditions": preconditions or [], "validation": validation or [],
                 "evidence": evidence or [], "confidence": confidence}
        return self._save_card(draft, area or signature, self._now())

    def card(self, uid: str) -> Plan[Card]:
        """A card with the outcomes it was drawn from (``evidence``); NotFoundError if unknown."""
        return self._card(uid)

    def cards(self, *, area: str | None = None, status: str | None = None) -> Plan[list[Card]]:
        """The tenant's cards, newest first (of one ``area`` and ``status`` when given)."""
        def plan() -> Plan[list[Card]]:
            rows = yield from run_query("playbook/cards", self._tenant, area=area, status=status)
            return [cast(Card, r["card"]) for r in rows]
        return plan()

    def _card_status(self, uid: str, status: str, reason: str | None, actor: str | None) -> Plan[Card]:
        rows = yield from write_query("playbook/card_status", self._tenant, uid=uid, status=status, reason=reason,
                                actor=actor, at=self._now())
        if not rows:
            raise NotFoundError(f"unknown card {uid!r}", kind="card", id=uid)
        yield from self._ledger("reject" if status == "rejected" else "activate", uid, actor, reason=reason)
        return (yield from self._card(uid))

    def reject_card(self, uid: str, *, reason: str | None = None, actor: str | None = None) -> Plan[Card]:
        """Reject a card (it leaves every context); the card is returned."""
        return self._card_status(uid, "rejected", reason, actor)

    def activate_card(self, uid: str, *, actor: str | None = None) -> Plan[Card]:
        """Mark a card active (still advice); the card is returned."""
        return self._card_status(uid, "active", None, actor)

    def rollback_card(self, uid: str, *, actor: str | None = None) -> Plan[Card]:
        """The card is superseded; the version it replaced is active again (and returned)."""
        def plan() -> Plan[Card]:
            rows = yield from write_query("playbook/card_rollback", self._tenant, uid=uid, actor=actor, at=self._now())
            if not rows:
                raise ValidationError(f"card {uid!r} has no earlier version to roll back to")
            yield from self._ledger("rollback_card", uid, actor, active_again=rows[0]["uid"])
            return (yield from self._card(rows[0]["uid"]))
        return plan()

    def applicable(self, area: str | None = None) -> Plan[Applicable]:
        """The rules (safety first, then L4) and at most three L3 cards for a task area; a card
        that disagrees with a rule is marked and the rule wins."""
        return applicable(self._tenant, area)
