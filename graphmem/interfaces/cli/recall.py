"""Recall: context, summary, and the ``user`` group (``user show`` is mem.user_page, ``user apply``
mem.apply_user_page)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from ...core.errors import ValidationError
from .common import Commands, Opts, read_input

cmds = Commands()
user_cmds = Commands()

BudgetTokensOpt = typer.Option(1500, "--budget-tokens", help="token budget of the rendered context")
OldBudgetOpt = typer.Option(None, "--budget", hidden=True, help="old spelling of --budget-tokens")


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
def context(store: Any, opts: Opts,
            task: str = typer.Argument(..., help="what the agent is about to do, in its own words"),
            subject: Optional[str] = typer.Option(None, help="scope to this subject and its neighbourhood"),
            valid_at: Optional[str] = typer.Option(None, help="valid time (default now)"),
            known_at: Optional[str] = typer.Option(None, help="record time (default now)"),
            env: Optional[str] = None, session: Optional[str] = None,
            budget_tokens: int = BudgetTokensOpt, budget: Optional[int] = OldBudgetOpt,
            include_candidates: bool = typer.Option(False, "--include-candidates"),
            hops: Optional[int] = typer.Option(None, help="graph expansion from the subject: 0, 1 or 2 relations "
                                                          "(default: the preset's, 2)"),
            limit: Optional[int] = typer.Option(None, help="at most this many facts (default: the preset's)"),
            area: Optional[str] = typer.Option(None, help="playbook area for rules and cards"),
            config: Optional[str] = typer.Option(None, "--config", help="a recall preset: default, facts, "
                                                                        "conversation")) -> None:
    """What an agent should know for TASK: facts with validity, sources, versions, warnings;
    rules and cards; a summary — fitted to a token budget. Prints the prompt text (or --json).

    Example: graphmem context "where do I send lin's package?" --subject lin --valid-at 2026-10-05 -t t-addr
    """
    kw = {k: v for k, v in (("hops", hops), ("limit", limit), ("config", config)) if v is not None}
    ctx = store.context(task, subject=subject, valid_at=valid_at, known_at=known_at, env=env, session=session,
                        budget_tokens=budget_tokens_of(budget_tokens, budget), include_candidates=include_candidates,
                        area=area, **kw)
    typer.echo(ctx.model_dump_json() if opts.as_json else ctx.render())


@cmds("summary", lean=True)
def summary(store: Any, opts: Opts, subject: str, topic: Optional[str] = None,
            no_rebuild: bool = typer.Option(False, "--no-rebuild", help="refuse a stale summary instead of "
                                                                        "rebuilding")) -> None:
    """The deterministic summary of SUBJECT (a derived copy), rebuilt first if its facts changed.

    Example: graphmem summary lin -t t-addr --json
    """
    view = store.summary(subject, topic, rebuild=not no_rebuild)
    typer.echo(view.model_dump_json() if opts.as_json else view.text)


@user_cmds("show", lean=True)
def user_show(store: Any, opts: Opts, subject: str,
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
def user_apply(store: Any, opts: Opts, subject: str,
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
