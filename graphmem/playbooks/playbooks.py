"""Playbooks (DESIGN.md §5, §7): L3 experience cards and L4 workflows.

* **L3 experience cards** are drafted automatically from task outcomes by a deterministic drafter
  (:func:`draft_from_outcomes`): after a failure and then a success on the same task, what
  failed goes to ``avoid_steps`` and the path that worked to ``recommended_steps``. Cards are
  advice: low authority, rejectable, roll-backable, at most three per context, never binding.
* **L4 workflows** are owned procedures with immutable, hashed versions chained by ``PREVIOUS``.
  A card becomes a workflow version only by a *request* (:meth:`Playbooks.request_promotion`)
  that passes a static check of its fields and a replay of the card's recorded examples against
  its validation rules; it becomes *current* only by the **owner's approval** (or a named
  delegate's), recorded in the graph as an ``Approval`` node in the same statement — and only
  if the content approved is the content that was checked (its hash). There is no other path:
  ledger events cannot publish (``apply`` knows no such op), the CLI calls these methods, and no
  Cypher file sets ``current_version`` except ``approve`` and ``rollback``, both owner-guarded.

Validation rules are strings: ``must: <step>``, ``never: <step>``, ``output: <name>``.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import NotFoundError, ValidationError
from ..store.ops import Plan, Tx, run_query

__all__ = ["CheckReport", "Playbooks", "content_hash", "draft_from_outcomes", "replay", "static_check"]

MAX_CARDS = 3
RULE = re.compile(r"^\s*(must|never|output)\s*:\s*(\S.*?)\s*$", re.IGNORECASE)


def content_hash(fields: dict[str, Any]) -> str:
    """The hash of a version's content: what an approver approves."""
    keys = ("text", "scenario", "inputs", "outputs", "tool_permissions", "validation_rules")
    blob = json.dumps({k: fields.get(k) for k in keys}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


@dataclass
class CheckReport:
    passed: bool
    problems: list[str] = field(default_factory=list)

    def text(self) -> str:
        return "ok" if self.passed else "; ".join(self.problems)


def _rules(rules: list[str]) -> list[tuple[str, str]]:
    out = []
    for r in rules:
        m = RULE.match(r)
        if m:
            out.append((m.group(1).lower(), m.group(2)))
    return out


def static_check(fields: dict[str, Any], evidence: list[dict[str, Any]]) -> CheckReport:
    """Schema and consistency of a promotion request's fields."""
    problems = []
    for name in ("text", "scenario"):
        if not isinstance(fields.get(name), str) or not fields[name].strip():
            problems.append(f"{name} is empty")
    for name in ("inputs", "outputs", "validation_rules"):
        v = fields.get(name)
        if not isinstance(v, list) or not v or not all(isinstance(x, str) and x.strip() for x in v):
            problems.append(f"{name} must be a non-empty list of strings")
    tools = fields.get("tool_permissions")
    if not isinstance(tools, list) or not all(isinstance(x, str) and re.fullmatch(r"[\w.:-]+", x) for x in tools):
        problems.append("tool_permissions must be stated as a list of tool names (it may be empty)")
    rules = fields.get("validation_rules") or []
    parsed = _rules(rules)
    if len(parsed) != len(rules):
        bad = [r for r in rules if not RULE.match(r)]
        problems.append(f"validation rules must read 'must: …', 'never: …' or 'output: …': {bad}")
    must = {x for k, x in parsed if k == "must"}
    never = {x for k, x in parsed if k == "never"}
    if must & never:
        problems.append(f"a step cannot be both required and forbidden: {sorted(must & never)}")
    for k, x in parsed:
        if k == "output" and x not in (fields.get("outputs") or []):
            problems.append(f"validation names output {x!r} that the outputs do not list")
    if not evidence:
        problems.append("no evidence: a promotion needs the outcomes the card was drawn from")
    return CheckReport(not problems, problems)


def replay(rules: list[str], evidence: list[dict[str, Any]]) -> CheckReport:
    """Replay the card's recorded examples against the rules: every success must satisfy them."""
    parsed = _rules(rules)
    successes = [e for e in evidence if e.get("outcome") == "success"]
    if not successes:
        return CheckReport(False, ["no successful example to replay"])
    problems = []
    for e in successes:
        steps = list(e.get("steps") or [])
        for kind, step in parsed:
            if kind == "must" and step not in steps:
                problems.append(f"example {e.get('uid')}: required step {step!r} missing")
            if kind == "never" and step in steps:
                problems.append(f"example {e.get('uid')}: forbidden step {step!r} taken")
    return CheckReport(not problems, problems)


def draft_from_outcomes(task: str, outcomes: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A card from a task's outcomes, oldest first: needs a failure followed by a success."""
    last_success = max((i for i, o in enumerate(outcomes) if o["outcome"] == "success"), default=None)
    if last_success is None:
        return None
    failures = [o for o in outcomes[:last_success] if o["outcome"] != "success"]
    if not failures:
        return None
    good = list(outcomes[last_success]["steps"])
    avoid: list[str] = []
    for f in failures:
        for s in f["steps"]:
            if s not in good and s not in avoid:
                avoid.append(s)
    errors: list[str] = []
    for f in failures:
        for err in f.get("errors") or []:
            if err not in errors:
                errors.append(err)
    wins = sum(o["outcome"] == "success" for o in outcomes)
    return {"signature": task, "preconditions": [f"seen: {e}" for e in errors],
            "recommended_steps": good, "avoid_steps": avoid,
            "validation": [f"must: {s}" for s in good] + [f"never: {s}" for s in avoid],
            "confidence": round(min(0.9, wins / len(outcomes)), 3),
            "evidence": [o["uid"] for o in outcomes]}


def _write(query: str, tenant: str, /, **params: Any) -> Plan[list[dict[str, Any]]]:
    rows: list[dict[str, Any]] = yield Tx(lambda: run_query(query, tenant, **params), query)
    return rows


def applicable(tenant: str, area: str | None) -> Plan[dict[str, Any]]:
    """The plan behind :meth:`Playbooks.applicable`; graphmem.recall.recall runs it inside context()."""
    rows = yield from run_query("playbook/applicable", tenant, area=area)
    rules = sorted((r for r in rows if r["kind"] == "rule"), key=lambda r: (not r["safety"], r["name"]))
    cards = sorted((r["card"] for r in rows if r["kind"] == "card"),
                   key=lambda c: (-(c.get("confidence") or 0), c["uid"]))
    kept = []
    for c in cards:
        against = [r["name"] for r in rules
                   if set(c.get("recommended_steps") or []) & set(r["forbidden_steps"] or [])
                   or set(c.get("avoid_steps") or []) & set(r["required_steps"] or [])]
        if against != (c.get("conflicts_with") or []):
            yield from _write("playbook/card_conflicts", tenant, uid=c["uid"], workflows=against)
        kept.append({**c, "conflicts_with": against})
    return {"rules": rules, "cards": kept[:MAX_CARDS]}


class Playbooks:
    """L3 and L4 for one store (sync or async: methods return what the store's ``_run`` returns)."""

    def __init__(self, store: Any) -> None:
        self._store = store

    @property
    def _tenant(self) -> str:
        tenant: str = self._store.tenant
        return tenant

    def _now(self) -> str:
        now: str = self._store._clock().isoformat()
        return now

    def _run(self, plan: Plan[Any]) -> Any:
        return self._store._run(plan)

    def _ledger(self, action: str, target: str, actor: str | None, **detail: Any) -> Plan[None]:
        """Record a transition as a ledger event (audit() shows it; the hash chain covers it)."""
        from ..store.ops import apply
        yield from apply(self._tenant, {"op": "playbook", "action": action, "target": target,
                                        "detail": {k: v for k, v in detail.items() if v is not None},
                                        **({"actor": actor} if actor else {})},
                         self._store._clock(), None, self._store.actor)

    # -- L3 --------------------------------------------------------------------------------------

    def record_outcome(self, task: str, steps: list[str], outcome: str, errors: list[str] | None = None, *,
                       area: str | None = None, actor: str | None = None) -> Any:
        """Record how a task went; after a failure then a success, a card is drafted (returned)."""
        if outcome not in ("success", "failure"):
            raise ValidationError("outcome is 'success' or 'failure'")
        if not task or not isinstance(steps, list) or not all(isinstance(s, str) and s for s in steps):
            raise ValidationError("record_outcome needs a task and a list of step names")
        from ..store import observe
        return self._run(observe.observed_plan("playbook_outcome", self._tenant, self._record(
            task, steps, outcome, errors or [], area, actor), lambda card: {
                "outcome": outcome, "steps": len(steps), "card": card["uid"] if card else None},
            {"outcome": outcome}))

    def _record(self, task: str, steps: list[str], outcome: str, errors: list[str], area: str | None,
                actor: str | None, uid: str | None = None) -> Plan[dict[str, Any] | None]:
        """Record an outcome (and draft a card from a success). ``uid``: an idempotency id — the
        same outcome recorded again (a rerun after a crash) is recorded and drafted from once."""
        tenant, at = self._tenant, self._now()
        rows = yield from _write("playbook/outcome_add", tenant, uid=uid or f"o-{uuid.uuid4().hex[:12]}", task=task,
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

    def _save_card(self, draft: dict[str, Any], area: str, at: str) -> Plan[dict[str, Any]]:
        tenant = self._tenant
        n = (yield from run_query("playbook/card_versions", tenant, signature=draft["signature"]))[0]["n"]
        rows = yield from _write("playbook/card_save", tenant, uid=f"c-{uuid.uuid4().hex[:12]}",
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
                   evidence: list[str] | None = None, confidence: float = 0.5, area: str | None = None) -> Any:
        """Draft a card explicitly (a person's lesson); still L3: advice only."""
        draft = {"signature": signature, "recommended_steps": recommended_steps, "avoid_steps": avoid_steps or [],
                 "preconditions": preconditions or [], "validation": validation or [],
                 "evidence": evidence or [], "confidence": confidence}
        return self._run(self._save_card(draft, area or signature, self._now()))

    def _card(self, uid: str | None) -> Plan[dict[str, Any]]:
        rows = yield from run_query("playbook/card_get", self._tenant, uid=uid)
        if not rows:
            raise NotFoundError(f"unknown card {uid!r}", kind="card", id=uid or "")
        return {**rows[0]["card"], "evidence": rows[0]["evidence"]}

    def card(self, uid: str) -> Any:
        return self._run(self._card(uid))

    def cards(self, *, area: str | None = None, status: str | None = None) -> Any:
        def plan() -> Plan[list[dict[str, Any]]]:
            rows = yield from run_query("playbook/cards", self._tenant, area=area, status=status)
            return [r["card"] for r in rows]
        return self._run(plan())

    def _card_status(self, uid: str, status: str, reason: str | None, actor: str | None) -> Plan[dict[str, Any]]:
        rows = yield from _write("playbook/card_status", self._tenant, uid=uid, status=status, reason=reason,
                                 actor=actor, at=self._now())
        if not rows:
            raise NotFoundError(f"unknown card {uid!r}", kind="card", id=uid)
        yield from self._ledger("reject" if status == "rejected" else "activate", uid, actor, reason=reason)
        return (yield from self._card(uid))

    def reject_card(self, uid: str, *, reason: str | None = None, actor: str | None = None) -> Any:
        return self._run(self._card_status(uid, "rejected", reason, actor))

    def activate_card(self, uid: str, *, actor: str | None = None) -> Any:
        return self._run(self._card_status(uid, "active", None, actor))

    def rollback_card(self, uid: str, *, actor: str | None = None) -> Any:
        """The card is superseded; the version it replaced is active again."""
        def plan() -> Plan[dict[str, Any]]:
            rows = yield from _write("playbook/card_rollback", self._tenant, uid=uid, actor=actor, at=self._now())
            if not rows:
                raise ValidationError(f"card {uid!r} has no earlier version to roll back to")
            yield from self._ledger("rollback_card", uid, actor, active_again=rows[0]["uid"])
            return (yield from self._card(rows[0]["uid"]))
        return self._run(plan())

    # -- L4 --------------------------------------------------------------------------------------

    def request_promotion(self, card: str, *, workflow: str, owner: str, text: str, scenario: str,
                          inputs: list[str], outputs: list[str], tool_permissions: list[str],
                          validation_rules: list[str], requested_by: str | None = None,
                          delegates: list[str] | None = None, safety: bool = False) -> Any:
        """Ask to promote a card to a new version of ``workflow``; runs the static check and the
        replay and stores their report. The version is *requested*, not current."""
        fields = dict(text=text, scenario=scenario, inputs=inputs, outputs=outputs,
                      tool_permissions=tool_permissions, validation_rules=validation_rules)
        return self._run(self._request(card, workflow, owner, fields, requested_by, delegates or [], safety))

    def _request(self, card_uid: str, name: str, owner: str, fields: dict[str, Any], actor: str | None,
                 delegates: list[str], safety: bool) -> Plan[dict[str, Any]]:
        tenant, at = self._tenant, self._now()
        card = yield from self._card(card_uid)
        evidence = card.get("evidence") or []
        check = static_check(fields, evidence)
        rep = replay(fields.get("validation_rules") or [], evidence)
        existing = yield from run_query("playbook/workflow_get", tenant, name=name)
        if not existing:
            yield from _write("playbook/workflow_create", tenant, name=name, owner=owner, delegates=delegates,
                              safety=safety, at=at)
        parsed = _rules(fields.get("validation_rules") or [])
        report = f"static check: {check.text()}; replay: {rep.text()}"
        rows = yield from _write("playbook/version_add", tenant, name=name, uid=f"v-{uuid.uuid4().hex[:12]}",
                                 card=card_uid, actor=actor, at=at, content_hash=content_hash(fields),
                                 check_passed=check.passed, replay_passed=rep.passed, check_report=report,
                                 forbidden_steps=[x for k, x in parsed if k == "never"],
                                 required_steps=[x for k, x in parsed if k == "must"], **fields)
        wf = yield from self._workflow(name)
        yield from self._ledger("request", rows[0]["uid"], actor, workflow=name, card=card_uid,
                                content_hash=content_hash(fields), check_passed=check.passed,
                                replay_passed=rep.passed)
        return {"workflow": wf, "version": rows[0]["uid"], "number": rows[0]["number"],
                "check_passed": check.passed, "replay_passed": rep.passed, "report": report}

    def edit_version(self, version: str, *, text: str) -> Any:
        """Edit a requested version's text; the promotion must then be requested (checked) again."""
        def plan() -> Plan[Any]:
            found = yield from self._version(version)
            fields = {k: found.get(k) for k in ("text", "scenario", "inputs", "outputs", "tool_permissions",
                                                 "validation_rules")}
            fields["text"] = text
            out = yield from _write("playbook/version_edit", self._tenant, uid=version, text=text,
                                    content_hash=content_hash(fields))
            if not out:
                raise ValidationError(f"version {version!r} is not a requested version; approved versions are immutable")
            yield from self._ledger("edit", version, None, content_hash=content_hash(fields))
            return (yield from self._version(version))
        return self._run(plan())

    def _version(self, uid: str) -> Plan[dict[str, Any]]:
        for wf in (yield from run_query("playbook/workflows", self._tenant)):
            detail = yield from self._workflow(wf["name"])
            version: dict[str, Any]
            for version in detail["versions"]:
                if version["uid"] == uid:
                    return version
        raise NotFoundError(f"unknown workflow version {uid!r}", kind="workflow version", id=uid)

    def _workflow(self, name: str) -> Plan[dict[str, Any]]:
        rows = yield from run_query("playbook/workflow_get", self._tenant, name=name)
        if not rows:
            raise NotFoundError(f"unknown workflow {name!r}", kind="workflow", id=name)
        versions = [v for v in rows[0]["versions"] if v.get("uid")]
        wf = rows[0]["workflow"]
        return {**wf, "current_version": wf.get("current_version"), "delegates": wf.get("delegates") or [],
                "versions": versions}

    def workflow(self, name: str) -> Any:
        return self._run(self._workflow(name))

    def workflows(self) -> Any:
        return self._run(run_query("playbook/workflows", self._tenant))

    def approve(self, workflow: str, version: str, *, approver: str, version_hash: str,
                comment: str | None = None) -> Any:
        """Publish a version: the owner's (or a delegate's) approval of exactly ``version_hash``."""
        def plan() -> Plan[dict[str, Any]]:
            wf = yield from self._workflow(workflow)
            v = next((x for x in wf["versions"] if x["uid"] == version), None)
            if v is None:
                raise NotFoundError(f"workflow {workflow!r} has no version {version!r}", kind="workflow version",
                                    id=f"{workflow}@{version}")
            if approver != wf["owner"] and approver not in (wf.get("delegates") or []):
                raise ValidationError(f"{approver!r} may not approve {workflow!r}: only its owner "
                                      f"{wf['owner']!r} or a named delegate can")
            if v["status"] != "requested":
                raise ValidationError(f"version {v['number']} is {v['status']}, not awaiting approval")
            if not (v["check_passed"] and v["replay_passed"]):
                raise ValidationError(f"version {v['number']} did not pass its checks: {v['check_report']}")
            if v["content_hash"] != v["checked_hash"]:
                raise ValidationError(f"version {v['number']} changed after it was checked; request promotion again")
            if version_hash != v["content_hash"]:
                raise ValidationError("the hash approved is not the version's content hash: review the current text")
            rows = yield from _write("playbook/approve", self._tenant, name=workflow, uid=version, approver=approver,
                                     version_hash=version_hash, comment=comment, at=self._now())
            if not rows:
                raise ValidationError(f"version {v['number']} could not be approved (it changed meanwhile)")
            yield from self._ledger("approve", version, approver, workflow=workflow, version_hash=version_hash,
                                    comment=comment)
            return (yield from self._workflow(workflow))
        return self._run(plan())

    def reject_version(self, workflow: str, version: str, *, actor: str, reason: str | None = None) -> Any:
        def plan() -> Plan[dict[str, Any]]:
            rows = yield from _write("playbook/version_reject", self._tenant, name=workflow, uid=version,
                                     actor=actor, reason=reason, at=self._now())
            if not rows:
                raise ValidationError(f"{actor!r} cannot reject {version!r}: not the owner or a delegate, "
                                      "or the version is not awaiting approval")
            yield from self._ledger("reject_version", version, actor, workflow=workflow, reason=reason)
            return (yield from self._workflow(workflow))
        return self._run(plan())

    def rollback(self, workflow: str, *, actor: str) -> Any:
        """The previous approved version becomes current again (owner or delegate)."""
        def plan() -> Plan[dict[str, Any]]:
            rows = yield from _write("playbook/rollback", self._tenant, name=workflow, actor=actor, at=self._now())
            if not rows:
                raise ValidationError(f"cannot roll back {workflow!r}: not the owner or a delegate, "
                                      "or no earlier approved version")
            yield from self._ledger("rollback", workflow, actor)
            return (yield from self._workflow(workflow))
        return self._run(plan())

    def feedback(self, workflow: str, *, success: bool, min_uses: int = 5) -> Any:
        """Count a use of the current version; flags a regression against the version it replaced."""
        def plan() -> Plan[dict[str, Any]]:
            rows = yield from _write("playbook/feedback", self._tenant, name=workflow, success=success,
                                     min_uses=min_uses)
            if not rows:
                raise ValidationError(f"workflow {workflow!r} has no current version")
            yield from self._ledger("feedback", workflow, None, success=success)
            return rows[0]
        return self._run(plan())

    def applicable(self, area: str | None = None) -> Any:
        """The rules (safety first, then L4) and at most three L3 cards for a task area; a card
        that disagrees with a rule is marked and the rule wins."""
        return self._run(applicable(self._tenant, area))
