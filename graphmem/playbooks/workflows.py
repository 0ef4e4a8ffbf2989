"""L4 workflows (docs/design.md §5, §7): owned procedures with immutable, hashed versions chained by
``PREVIOUS``. A card becomes a workflow version only by a *request*
(:meth:`WorkflowPlans.request_promotion`) that passes a static check of its fields and a replay of the
card's recorded examples against its validation rules (graphmem.playbooks.rules); it becomes
*current* only by the **owner's approval** (or a named delegate's), recorded in the graph as an
``Approval`` node in the same statement — and only if the content approved is the content that
was checked (its hash). No Cypher file sets ``current_version`` except ``approve`` and
``rollback``, both owner-guarded. These are the L4 operations of ``mem.playbooks``, each a method
that returns its plan (the faces of graphmem.playbooks.faces run them)."""

from __future__ import annotations

import uuid
from typing import Any, cast

from ..core.errors import NotFoundError, ValidationError
from ..store.ops import Plan, run_query
from .records import Feedback, Promotion, Workflow, WorkflowSummary, WorkflowVersion
from .rules import CONTENT_KEYS, content_hash, parse_rules, replay, static_check
from .steps import PlaybookBase, write_query

__all__ = ["WorkflowPlans"]


class WorkflowPlans(PlaybookBase):
    """The L4 operations of :class:`~graphmem.playbooks.playbooks.PlaybookPlans`."""

    def request_promotion(self, card: str, *, workflow: str, owner: str, text: str, scenario: str,
                          inputs: list[str], outputs: list[str], tool_permissions: list[str],
                          validation_rules: list[str], requested_by: str | None = None,
                          delegates: list[str] | None = None, safety: bool = False) -> Plan[Promotion]:
        """Ask to promote a card to a new version of ``workflow``; runs the static check and the
        replay and stores their report. The version is *requested*, not current."""
        fields = dict(text=text, scenario=scenario, inputs=inputs, outputs=outputs,
                      tool_permissions=tool_permissions, validation_rules=validation_rules)
        return self._request(card, workflow, owner, fields, requested_by, delegates or [], safety)

    def _request(self, card_uid: str, name: str, owner: str, fields: dict[str, Any], actor: str | None,
                 delegates: list[str], safety: bool) -> Plan[Promotion]:
        tenant, at = self._tenant, self._now()
        card = yield from self._card(card_uid)
        evidence = cast(list[dict[str, Any]], card.get("evidence") or [])
        check = static_check(fields, evidence)
        rep = replay(fields.get("validation_rules") or [], evidence)
        existing = yield from run_query("playbook/workflow_get", tenant, name=name)
        if not existing:
            yield from write_query("playbook/workflow_create", tenant, name=name, owner=owner, delegates=delegates,
                             safety=safety, at=at)
        parsed = parse_rules(fields.get("validation_rules") or [])
        report = f"static check: {check.text()}; replay: {rep.text()}"
        rows = yield from write_query("playbook/version_add", tenant, name=name, uid=f"v-{uuid.uuid4().hex[:12]}",
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

    def edit_version(self, version: str, *, text: str) -> Plan[WorkflowVersion]:
        """Edit a requested version's text; the promotion must then be requested (checked) again."""
        def plan() -> Plan[WorkflowVersion]:
            found = yield from self._version(version)
            fields = {k: found.get(k) for k in CONTENT_KEYS}
            fields["text"] = text
            out = yield from write_query("playbook/version_edit", self._tenant, uid=version, text=text,
                                   content_hash=content_hash(fields))
            if not out:
                raise ValidationError(f"version {version!r} is not a requested version; approved versions are immutable")
            yield from self._ledger("edit", version, None, content_hash=content_hash(fields))
            return (yield from self._version(version))
        return plan()

    def workflow(self, name: str) -> Plan[Workflow]:
        """A workflow with every version (newest first) and its approvals; NotFoundError if unknown."""
        return self._workflow(name)

    def workflows(self) -> Plan[list[WorkflowSummary]]:
        """Every workflow of the tenant: name, owner, safety, current version number and hash."""
        return cast(Plan[list[WorkflowSummary]], run_query("playbook/workflows", self._tenant))

    def approve(self, workflow: str, version: str, *, approver: str, version_hash: str,
                comment: str | None = None) -> Plan[Workflow]:
        """Publish a version: the owner's (or a delegate's) approval of exactly ``version_hash``."""
        def plan() -> Plan[Workflow]:
            wf = yield from self._workflow(workflow)
            v = next((x for x in wf["versions"] if x["uid"] == version), None)
            if v is None:
                raise NotFoundError(f"workflow {workflow!r} has no version {version!r}", kind="workflow version",
                                    id=f"{workflow}@{version}")
            if approver != wf["owner"] and approver not in (wf.get("delegates") or []):
                raise ValidationError(f"{approver!r} may not approve {workflow!r}: only its owner "
                                      f"{wf['owner']!r} or a named delegate can")
            _approvable(v, version_hash)
            rows = yield from write_query("playbook/approve", self._tenant, name=workflow, uid=version, approver=approver,
                                    version_hash=version_hash, comment=comment, at=self._now())
            if not rows:
                raise ValidationError(f"version {v['number']} could not be approved (it changed meanwhile)")
            yield from self._ledger("approve", version, approver, workflow=workflow, version_hash=version_hash,
                                    comment=comment)
            return (yield from self._workflow(workflow))
        return plan()

    def reject_version(self, workflow: str, version: str, *, actor: str, reason: str | None = None) -> Plan[Workflow]:
        """Reject a requested version (owner or delegate); the workflow is returned."""
        def plan() -> Plan[Workflow]:
            rows = yield from write_query("playbook/version_reject", self._tenant, name=workflow, uid=version,
                                    actor=actor, reason=reason, at=self._now())
            if not rows:
                raise ValidationError(f"{actor!r} cannot reject {version!r}: not the owner or a delegate, "
                                      "or the version is not awaiting approval")
            yield from self._ledger("reject_version", version, actor, workflow=workflow, reason=reason)
            return (yield from self._workflow(workflow))
        return plan()

    def rollback(self, workflow: str, *, actor: str) -> Plan[Workflow]:
        """The previous approved version becomes current again (owner or delegate)."""
        def plan() -> Plan[Workflow]:
            rows = yield from write_query("playbook/rollback", self._tenant, name=workflow, actor=actor, at=self._now())
            if not rows:
                raise ValidationError(f"cannot roll back {workflow!r}: not the owner or a delegate, "
                                      "or no earlier approved version")
            yield from self._ledger("rollback", workflow, actor)
            return (yield from self._workflow(workflow))
        return plan()

    def feedback(self, workflow: str, *, success: bool, min_uses: int = 5) -> Plan[Feedback]:
        """Count a use of the current version; flags a regression against the version it replaced."""
        def plan() -> Plan[Feedback]:
            rows = yield from write_query("playbook/feedback", self._tenant, name=workflow, success=success,
                                    min_uses=min_uses)
            if not rows:
                raise ValidationError(f"workflow {workflow!r} has no current version")
            yield from self._ledger("feedback", workflow, None, success=success)
            return cast(Feedback, rows[0])
        return plan()


def _approvable(v: WorkflowVersion, version_hash: str) -> None:
    """A ValidationError unless ``v`` awaits approval, passed its checks, is unchanged since, and is what was reviewed."""
    if v["status"] != "requested":
        raise ValidationError(f"version {v['number']} is {v['status']}, not awaiting approval")
    if not (v["check_passed"] and v["replay_passed"]):
        raise ValidationError(f"version {v['number']} did not pass its checks: {v['check_report']}")
    if v["content_hash"] != v["checked_hash"]:
        raise ValidationError(f"version {v['number']} changed after it was checked; request promotion again")
    if version_hash != v["content_hash"]:
        raise ValidationError("the hash approved is not the version's content hash: review the current text")
