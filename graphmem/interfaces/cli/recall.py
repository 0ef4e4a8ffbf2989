"""Recall: context, summary, and the ``user`` group (``user show`` is mem.user_page, ``user apply``
mem.apply_user_page)."""

from __future__ import annotations

import functools
import inspect
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, TypedDict

import typer
from typer.models import OptionInfo

from ...core.errors import ValidationError
from .common import Commands, Opts, read_input

if TYPE_CHECKING:
    from ...store.client import GraphMem

cmds = Commands()
user_cmds = Commands()

TaskArg = typer.Argument(..., help="what the agent is about to do, in its own words")


class ContextKeywords(TypedDict):
    """The keywords of ``mem.context`` (and ``mem.working(s).context``) that ``graphmem context``
    and ``graphmem working context`` share, as the commands hand them on: ``store.context(task,
    **ask)``. Declared once, with their options in :data:`CONTEXT_OPTIONS`."""

    subject: Optional[str]
    valid_at: Optional[str]
    known_at: Optional[str]
    env: Optional[str]
    budget_tokens: int
    include_candidates: bool
    hops: Optional[int]
    limit: Optional[int]
    area: Optional[str]
    summary: bool
    playbooks: bool
    stale_after_days: Optional[int]
    expiring_within_days: Optional[int]
    config: Optional[str]
    gaps: bool


# Each keyword's option (type, typer option); its default is the client's (tests/unit/test_option_mirror.py).
CONTEXT_OPTIONS: dict[str, tuple[object, OptionInfo]] = {
    "subject": (Optional[str], typer.Option(None, help="scope to this subject and its neighbourhood")),
    "valid_at": (Optional[str], typer.Option(None, help="valid time (default now)")),
    "known_at": (Optional[str], typer.Option(None, help="record time (default now)")),
    "env": (Optional[str], typer.Option(None, help="the environment whose values replace the general ones")),
    "budget_tokens": (int, typer.Option(1500, "--budget-tokens", help="token budget of the rendered context")),
    "include_candidates": (bool, typer.Option(False, "--include-candidates",
                                              help="also unconfirmed candidates (marked)")),
    "hops": (Optional[int], typer.Option(None, help="graph expansion from the subject: 0, 1 or 2 relations "
                                                    "(default: the preset's, 2)")),
    "limit": (Optional[int], typer.Option(None, help="at most this many facts (default: the preset's)")),
    "area": (Optional[str], typer.Option(None, help="playbook area for rules and cards")),
    "summary": (bool, typer.Option(True, "--summary/--no-summary", help="include the subject's summary")),
    "playbooks": (bool, typer.Option(True, "--playbooks/--no-playbooks", help="include the rules and cards of --area")),
    "stale_after_days": (Optional[int], typer.Option(None, help="warn on facts older than this many days "
                                                                "(default: the preset's)")),
    "expiring_within_days": (Optional[int], typer.Option(None, help="warn on facts expiring within this many days "
                                                                    "(default: the preset's)")),
    "config": (Optional[str], typer.Option(None, "--config", help="a recall preset: default, facts, conversation")),
    "gaps": (bool, typer.Option(True, "--gaps/--no-gaps", help="list what the task asks about that memory does not "
                                                               "hold")),
}
OldBudgetOpt = typer.Option(None, "--budget", hidden=True, help="old spelling of --budget-tokens")


def context_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A ``context`` command body that takes ``ask: ContextKeywords`` becomes one that declares the
    options of :data:`CONTEXT_OPTIONS` (and the old hidden ``--budget``) to typer, and hands them
    on as ``ask``: the two ``context`` commands declare their shared options here, once."""
    own = [p for p in inspect.signature(fn, eval_str=True, locals={"GraphMem": object}).parameters.values()
           if p.name != "ask"]
    shared = [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=info, annotation=tp)
              for n, (tp, info) in CONTEXT_OPTIONS.items()]
    old = inspect.Parameter("budget", inspect.Parameter.KEYWORD_ONLY, default=OldBudgetOpt, annotation=Optional[int])

    @functools.wraps(fn)
    def body(*args: Any, budget: Optional[int] = None, **kw: Any) -> Any:
        ask = {n: kw.pop(n) for n in CONTEXT_OPTIONS}
        ask["budget_tokens"] = budget_tokens_of(ask["budget_tokens"], budget)
        return fn(*args, ask=ask, **kw)

    body.__signature__ = inspect.Signature(own + shared + [old])  # type: ignore[attr-defined]
    return body


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
@context_options
def context(store: GraphMem, opts: Opts, ask: ContextKeywords, task: str = TaskArg,
            session: Optional[str] = typer.Option(None, help="the working session whose L0 facts are seen")) -> None:
    """What an agent should know for TASK: facts with validity, sources, versions, warnings;
    rules and cards; a summary — fitted to a token budget. Prints the prompt text (or --json).

    Example: graphmem context "where do I send lin's package?" --subject lin --valid-at 2026-10-05 -t t-addr
    """
    ctx = store.context(task, session=session, **ask)
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
