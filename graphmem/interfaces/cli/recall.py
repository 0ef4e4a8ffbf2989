"""Recall: context, summary, and the ``user`` group (``user show`` is mem.user_page, ``user apply``
mem.apply_user_page)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from ...core.errors import ValidationError
from .common import Commands, Opts, read_input

if TYPE_CHECKING:
    from ...store.client import GraphMem

cmds = Commands()
user_cmds = Commands()

BudgetTokensOpt = typer.Option(1500, "--budget-tokens", help="token budget of the rendered context")
OldBudgetOpt = typer.Option(None, "--budget", hidden=True, help="old spelling of --budget-tokens")
# The options of mem.context that `graphmem context` and `graphmem working context` share.
TaskArg = typer.Argument(..., help="what the agent is about to do, in its own words")
SubjectOpt = typer.Option(None, help="scope to this subject and its neighbourhood")
ValidAtOpt = typer.Option(None, help="valid time (default now)")
KnownAtOpt = typer.Option(None, help="record time (default now)")
CandidatesOpt = typer.Option(False, "--include-candidates", help="also unconfirmed candidates (marked)")
HopsOpt = typer.Option(None, help="graph expansion from the subject: 0, 1 or 2 relations (default: the preset's, 2)")
LimitOpt = typer.Option(None, help="at most this many facts (default: the preset's)")
AreaOpt = typer.Option(None, help="playbook area for rules and cards")
SummaryOpt = typer.Option(True, "--summary/--no-summary", help="include the subject's summary")
PlaybooksOpt = typer.Option(True, "--playbooks/--no-playbooks", help="include the rules and cards of --area")
StaleOpt = typer.Option(None, help="warn on facts older than this many days (default: the preset's)")
ExpiringOpt = typer.Option(None, help="warn on facts expiring within this many days (default: the preset's)")
ConfigOpt = typer.Option(None, "--config", help="a recall preset: default, facts, conversation")
GapsOpt = typer.Option(True, "--gaps/--no-gaps", help="list what the task asks about that memory does not hold")


def register(app: typer.Typer) -> None:
    """Add context, summary and the ``user`` group to ``app``."""
    cmds.register(app)
    app.add_typer(user_cmds.register(typer.Typer(
        help="The L1 user page: a subject's confirmed facts as user.md; edits go to the ledger.\n\n"
             "Example: graphmem user show lin -t acme", no_args_is_help=True)), name="user")


def budget_tokens_of(budget_tokens: int, old: Optional[int]) -> int:
    """``--budget-tokens`` (the client's name), or the old hidden spelling ``--budget``."""
    return budget_tokens if old is None else old


@cmds("context")
def context(store: GraphMem, opts: Opts, task: str = TaskArg, subject: Optional[str] = SubjectOpt,
            valid_at: Optional[str] = ValidAtOpt, known_at: Optional[str] = KnownAtOpt,
            env: Optional[str] = None, session: Optional[str] = None,
            budget_tokens: int = BudgetTokensOpt, budget: Optional[int] = OldBudgetOpt,
            include_candidates: bool = CandidatesOpt, hops: Optional[int] = HopsOpt, limit: Optional[int] = LimitOpt,
            area: Optional[str] = AreaOpt, summary: bool = SummaryOpt, playbooks: bool = PlaybooksOpt,
            stale_after_days: Optional[int] = StaleOpt, expiring_within_days: Optional[int] = ExpiringOpt,
            config: Optional[str] = ConfigOpt, gaps: bool = GapsOpt) -> None:
    """What an agent should know for TASK: facts with validity, sources, versions, warnings;
    rules and cards; a summary — fitted to a token budget. Prints the prompt text (or --json).

    Example: graphmem context "where do I send lin's package?" --subject lin --valid-at 2026-10-05 -t t-addr
    """
    ctx = store.context(task, subject=subject, valid_at=valid_at, known_at=known_at, env=env, session=session,
                        budget_tokens=budget_tokens_of(budget_tokens, budget), include_candidates=include_candidates,
                        hops=hops, limit=limit, area=area, summary=summary, playbooks=playbooks,
                        stale_after_days=stale_after_days, expiring_within_days=expiring_within_days, config=config,
                        gaps=gaps)
    typer.echo(ctx.model_dump_json() if opts.as_json else ctx.render())


@cmds("summary", lean=True)
def summary(store: GraphMem, opts: Opts, subject: str, topic: Optional[str] = None,
            rebuild: bool = typer.Option(True, "--rebuild/--no-rebuild", help="rebuild a stale summary (or, with "
                                                                             "--no-rebuild, refuse it)")) -> None:
    """The deterministic summary of SUBJECT (a derived copy), rebuilt first if its facts changed.

    Example: graphmem summary lin -t t-addr --json
    """
    view = store.summary(subject, topic, rebuild=rebuild)
    typer.echo(view.model_dump_json() if opts.as_json else view.text)


@user_cmds("show", lean=True)
def user_show(store: GraphMem, opts: Opts, subject: str,
              out: Optional[Path] = typer.Option(None, "--out", help="write the page to this file")) -> None:
    """SUBJECT's confirmed, explicitly stated facts as a user.md page (mem.user_page).

    Example: graphmem user show lin -t t-addr --out user.md
    """
    page = store.user_page(subject)
    if out is not None:
        try:
            out.write_text(page, encoding="utf-8")
        except OSError as e:
            raise ValidationError(f"cannot write {out}: {e}") from e
    if opts.as_json:
        typer.echo(json.dumps({"subject": subject, "page": page}, ensure_ascii=False))
    elif out is None:
        typer.echo(page, nl=False)


@user_cmds("apply")
def user_apply(store: GraphMem, opts: Opts, subject: str,
               file: Path = typer.Argument(..., help="the edited page ('-' for stdin)"),
               actor: Optional[str] = typer.Option(None, help="who edited it (default: the subject)")) -> None:
    """Turn the edits of a user page into ledger events (one atomic batch; mem.apply_user_page).

    Example: graphmem user show lin --out user.md; $EDITOR user.md; graphmem user apply lin user.md
    """
    events = store.apply_user_page(subject, read_input(file), actor=actor)
    if opts.as_json:
        typer.echo(json.dumps(events, ensure_ascii=False))
    elif not events:
        typer.echo("no changes")
    else:
        for e in events[1:]:
            typer.echo(f"{e['op']:7} {e.get('topic', e.get('fact', ''))} {e.get('value', '')}".rstrip())
