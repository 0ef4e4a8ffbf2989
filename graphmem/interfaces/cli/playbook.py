"""``graphmem playbook …``: the mirror of ``mem.playbooks`` (graphmem.playbooks.playbooks), verb for verb —
record-outcome (old name ``draft``), draft-card, card, cards, reject-card, activate-card,
rollback-card, request-promotion, edit-version, workflow, workflows, approve, reject-version (old
name ``reject``), rollback, feedback, applicable; plus ``list`` and ``show`` for people."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Optional

import typer

from .common import Commands, Opts

if TYPE_CHECKING:
    from ...store.client import GraphMem

cmds = Commands()
CardArg = typer.Argument(..., help="the card id (c-…)")


def register(app: typer.Typer) -> None:
    """Add the ``playbook`` group to ``app``."""
    app.add_typer(cmds.register(typer.Typer(help="L3 experience cards and L4 workflows (mem.playbooks).\n\n"
                                                 "Example: graphmem playbook list --area deploy-db",
                                            no_args_is_help=True)), name="playbook")


@cmds("list")
def playbook_list(store: GraphMem, opts: Opts, area: Optional[str] = None) -> Any:
    """Workflows (with their current version) and experience cards.

    Example: graphmem playbook list --area deploy-db --json
    """
    return {"workflows": store.playbooks.workflows(), "cards": store.playbooks.cards(area=area)}


@cmds("show")
def playbook_show(store: GraphMem, opts: Opts,
                  name: str = typer.Argument(..., help="a workflow name or a card id")) -> Any:
    """One workflow with its versions and approvals, or one card with its evidence.

    Example: graphmem playbook show deploy-db
    """
    return store.playbooks.card(name) if name.startswith("c-") else store.playbooks.workflow(name)


@cmds("card")
def card(store: GraphMem, opts: Opts, uid: str = CardArg) -> Any:
    """One experience card with its evidence.

    Example: graphmem playbook card c-1 --json
    """
    return store.playbooks.card(uid)


@cmds("cards")
def cards(store: GraphMem, opts: Opts, area: Optional[str] = None,
          status: Optional[str] = typer.Option(None, help="draft, active, rejected or superseded")) -> Any:
    """The experience cards, of an area or a status.

    Example: graphmem playbook cards --area deploy-db --status active
    """
    return store.playbooks.cards(area=area, status=status)


@cmds("workflow")
def workflow(store: GraphMem, opts: Opts, name: str) -> Any:
    """One workflow with its versions and approvals.

    Example: graphmem playbook workflow deploy-db --json
    """
    return store.playbooks.workflow(name)


@cmds("workflows")
def workflows(store: GraphMem, opts: Opts) -> Any:
    """Every workflow with its current version.

    Example: graphmem playbook workflows
    """
    return store.playbooks.workflows()


@cmds("applicable")
def applicable(store: GraphMem, opts: Opts, area: Optional[str] = None) -> Any:
    """The rules (safety first, then L4) and at most three L3 cards for a task area; a card that
    disagrees with a rule is marked and the rule wins.

    Example: graphmem playbook applicable --area deploy-db --json
    """
    return store.playbooks.applicable(area)


@cmds("record-outcome", aliases=("draft",))
def record_outcome(store: GraphMem, opts: Opts, task: str,
                   steps: List[str] = typer.Option(..., "--step", help="a step, in order (repeat)"),
                   outcome: str = typer.Option(..., help="success or failure"),
                   errors: List[str] = typer.Option([], "--error", help="an error seen (repeat)"),
                   area: Optional[str] = None, actor: Optional[str] = None) -> Any:
    """Record a task outcome; after a failure then a success a card is drafted (`playbook draft`
    is the old name).

    Example: graphmem playbook record-outcome deploy-db --step "run migrations" --step "restart service" --outcome success
    """
    return store.playbooks.record_outcome(task, steps, outcome, errors, area=area, actor=actor) or {"card": None}


@cmds("draft-card")
def draft_card(store: GraphMem, opts: Opts, signature: str,
               recommended_steps: List[str] = typer.Option(..., "--step", help="a recommended step (repeat)"),
               avoid_steps: List[str] = typer.Option([], "--avoid", help="a step to avoid (repeat)"),
               preconditions: List[str] = typer.Option([], "--precondition", help="a precondition (repeat)"),
               validation: List[str] = typer.Option([], "--validation", help="a check (repeat)"),
               evidence: List[str] = typer.Option([], "--evidence", help="a source id (repeat)"),
               confidence: float = 0.5, area: Optional[str] = None) -> Any:
    """Draft a card explicitly (a person's lesson); still L3: advice only.

    Example: graphmem playbook draft-card deploy-db --step "back up first" --avoid "deploy on Friday"
    """
    return store.playbooks.draft_card(signature, recommended_steps=recommended_steps, avoid_steps=avoid_steps,
                                      preconditions=preconditions, validation=validation, evidence=evidence,
                                      confidence=confidence, area=area)


@cmds("reject-card")
def reject_card(store: GraphMem, opts: Opts, uid: str = CardArg, reason: Optional[str] = None,
                actor: Optional[str] = None) -> Any:
    """Reject a drafted card.

    Example: graphmem playbook reject-card c-1 --reason "wrong lesson" --actor alice
    """
    return store.playbooks.reject_card(uid, reason=reason, actor=actor)


@cmds("activate-card")
def activate_card(store: GraphMem, opts: Opts, uid: str = CardArg, actor: Optional[str] = None) -> Any:
    """Make a drafted card active (still advice only).

    Example: graphmem playbook activate-card c-1 --actor alice
    """
    return store.playbooks.activate_card(uid, actor=actor)


@cmds("rollback-card")
def rollback_card(store: GraphMem, opts: Opts, uid: str = CardArg, actor: Optional[str] = None) -> Any:
    """The card is superseded; the version it replaced is active again.

    Example: graphmem playbook rollback-card c-2 --actor alice
    """
    return store.playbooks.rollback_card(uid, actor=actor)


@cmds("request-promotion")
def request_promotion(store: GraphMem, opts: Opts, card: str, workflow: str = typer.Option(...),
                      owner: str = typer.Option(...), text: str = typer.Option(...),
                      scenario: str = typer.Option(...), inputs: List[str] = typer.Option(..., "--input"),
                      outputs: List[str] = typer.Option(..., "--output"),
                      tool_permissions: List[str] = typer.Option([], "--tool"),
                      validation_rules: List[str] = typer.Option(..., "--rule"),
                      requested_by: Optional[str] = None,
                      delegates: List[str] = typer.Option([], "--delegate", help="may approve too (repeat)"),
                      safety: bool = typer.Option(False, "--safety", help="a safety rule: shown first")) -> Any:
    """Ask to promote a card to a workflow version; runs the static check and the replay.

    Example: graphmem playbook request-promotion c-1 --workflow deploy-db --owner alice --text "..." --scenario deploy-db --input release --output report --rule "must: run migrations"
    """
    return store.playbooks.request_promotion(
        card, workflow=workflow, owner=owner, text=text, scenario=scenario, inputs=inputs, outputs=outputs,
        tool_permissions=tool_permissions, validation_rules=validation_rules, requested_by=requested_by,
        delegates=delegates or None, safety=safety)


@cmds("edit-version")
def edit_version(store: GraphMem, opts: Opts, version: str, text: str = typer.Option(...)) -> Any:
    """Edit a requested version's text; the promotion must then be requested (checked) again.

    Example: graphmem playbook edit-version v-123 --text "run migrations, then restart"
    """
    return store.playbooks.edit_version(version, text=text)


@cmds("approve")
def approve(store: GraphMem, opts: Opts, workflow: str, version: str, approver: str = typer.Option(...),
            version_hash: str = typer.Option(..., "--hash", help="the content hash you reviewed"),
            comment: Optional[str] = None) -> Any:
    """Publish a version: only the owner (or a delegate), only the content that was checked.

    Example: graphmem playbook approve deploy-db v-123 --approver alice --hash 3f2a...
    """
    return store.playbooks.approve(workflow, version, approver=approver, version_hash=version_hash, comment=comment)


@cmds("reject-version", aliases=("reject",))
def reject_version(store: GraphMem, opts: Opts, workflow: str, version: str, actor: str = typer.Option(...),
                   reason: Optional[str] = None) -> Any:
    """Reject a requested version (owner or delegate); `playbook reject` is the old name.

    Example: graphmem playbook reject-version deploy-db v-123 --actor alice --reason "too broad"
    """
    return store.playbooks.reject_version(workflow, version, actor=actor, reason=reason)


@cmds("rollback")
def rollback(store: GraphMem, opts: Opts, workflow: str, actor: str = typer.Option(...)) -> Any:
    """Make the previous approved version current again (owner or delegate).

    Example: graphmem playbook rollback deploy-db --actor alice
    """
    return store.playbooks.rollback(workflow, actor=actor)


@cmds("feedback")
def feedback(store: GraphMem, opts: Opts, workflow: str, success: bool = typer.Option(..., "--success/--failure"),
             min_uses: int = typer.Option(5, help="uses before a regression can be flagged")) -> Any:
    """Count a use of the current version; flags a regression against the version it replaced.

    Example: graphmem playbook feedback deploy-db --failure
    """
    return store.playbooks.feedback(workflow, success=success, min_uses=min_uses)
