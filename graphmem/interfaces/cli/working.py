"""``graphmem working …``: the mirror of ``mem.working(session)``, verb for verb (``add``, ``items``,
``use``, ``checkpoint``, ``resume``, ``context``, ``close``); ``working list`` is
``mem.working_sessions()``. ``--budget-tokens`` is the client's name (``--budget`` still works)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Literal, Optional, cast

import typer

from ...core.errors import ValidationError
from .common import Commands, Opts, json_arg
from .recall import ContextKeywords, TaskArg, context_options

if TYPE_CHECKING:
    from ...store.client import GraphMem
    from ...working.faces import WorkingMemory
    from ...working.working import ItemType, Role

cmds = Commands()

SessionArg = typer.Argument(..., help="the working session's id")
PolicyBudgetOpt = typer.Option(None, "--budget-tokens", help="token budget of the session (recorded at the next write)")
OldPolicyBudgetOpt = typer.Option(None, "--budget", hidden=True, help="old spelling of --budget-tokens")
StrategyOpt = typer.Option(None, "--strategy", help="evict or compress, when the budget is full")
WarnRatioOpt = typer.Option(None, "--warn-ratio", help="warn when the items fill this share of the budget (0.8)")
KeepRecentOpt = typer.Option(None, "--keep-recent", help="the newest turns never compressed (2)")
SummaryRatioOpt = typer.Option(None, "--summary-ratio", help="a summary holds at most this share of the budget (0.25)")


def register(app: typer.Typer) -> None:
    """Add the ``working`` group to ``app``."""
    app.add_typer(cmds.register(typer.Typer(
        help="Working memory of a session: items under a token budget, checkpoints, the end gate.\n\n"
             "Example: graphmem working add s1 \"deploy to prod\" --type decision -t acme",
        no_args_is_help=True)), name="working")


def _wm(store: GraphMem, session: str, budget_tokens: int | None = None, strategy: str | None = None,
        warn_ratio: float | None = None, keep_recent: int | None = None,
        summary_ratio: float | None = None) -> WorkingMemory:
    """``mem.working(session, …)``: None is 'not given' (the session's stored policy holds); the
    client checks the strategy's name."""
    return store.working(session, budget_tokens=budget_tokens, strategy=cast("Literal['evict', 'compress'] | None",
                                                                            strategy),
                         warn_ratio=warn_ratio, keep_recent=keep_recent, summary_ratio=summary_ratio)


@cmds("add", actor=True)
def add(store: GraphMem, opts: Opts, session: str = SessionArg, text: str = typer.Argument(..., help="the item's text"),
        type: str = typer.Option("turn", "--type", help="turn, tool_result, decision, hypothesis, instruction, todo"),
        role: Optional[str] = typer.Option(None, help="user, agent, tool or system"),
        author: Optional[str] = None, importance: float = 0.5,
        id: Optional[str] = typer.Option(None, "--id", help="idempotency id of the item"),
        cites: List[str] = typer.Option([], "--cite", help="an item this one cites (repeatable)"),
        claim: Optional[str] = typer.Option(None, help='JSON {"subject","topic","value"} of a decision'),
        temporary: bool = typer.Option(False, "--temporary", help="a task parameter: never long-term"),
        source: Optional[str] = typer.Option(None, help="a tool result's source id"),
        relayed_by: Optional[str] = typer.Option(None, help="the agent that relayed a user's turn (what the end "
                                                            "gate keeps of it says so)"),
        budget_tokens: Optional[int] = PolicyBudgetOpt, budget: Optional[int] = OldPolicyBudgetOpt,
        strategy: Optional[str] = StrategyOpt, warn_ratio: Optional[float] = WarnRatioOpt,
        keep_recent: Optional[int] = KeepRecentOpt, summary_ratio: Optional[float] = SummaryRatioOpt) -> Any:
    """Add an item to SESSION's working memory (compressing or evicting to keep the budget).

    Example: graphmem working add s1 "use the blue-green deploy" --type decision --budget-tokens 4000 -t acme
    """
    c = json_arg(claim, "--claim")
    wm = _wm(store, session, budget if budget is not None else budget_tokens, strategy, warn_ratio=warn_ratio,
             keep_recent=keep_recent, summary_ratio=summary_ratio)
    return wm.add(text, type=cast("ItemType", type), role=cast("Role | None", role), author=author,  # checked there
                  importance=importance, id=id, cites=cites or None, claim=c, temporary=temporary, source=source,
                  relayed_by=relayed_by)


@cmds("items")
def items(store: GraphMem, opts: Opts, session: str = SessionArg,
          include_evicted: bool = typer.Option(False, "--include-evicted")) -> Any:
    """SESSION's items, in the order they were added.

    Example: graphmem working items s1 --include-evicted -t acme --json
    """
    return _wm(store, session).items(include_evicted=include_evicted)


@cmds("use")
def use(store: GraphMem, opts: Opts, session: str = SessionArg,
        ids: List[str] = typer.Argument(..., help="item ids")) -> Any:
    """Record that the agent used these items.

    Example: graphmem working use s1 i-1 i-2 -t acme
    """
    return _wm(store, session).use(*ids)


@cmds("checkpoint")
def checkpoint(store: GraphMem, opts: Opts, session: str = SessionArg,
               state: str = typer.Argument(..., help="the task state as JSON"),
               id: Optional[str] = typer.Option(None, "--id", help="idempotency id of the checkpoint")) -> Any:
    """Record the task's state; resume returns the latest.

    Example: graphmem working checkpoint s1 '{"step": 3}' -t acme
    """
    return _wm(store, session).checkpoint(json_arg(state, "STATE"), id=id)


@cmds("resume")
def resume(store: GraphMem, opts: Opts, session: str = SessionArg) -> Any:
    """Where a restarted agent picks SESSION up: the last checkpoint and the live items.

    Example: graphmem working resume s1 -t acme --json
    """
    return _wm(store, session).resume()


@cmds("context")
@context_options
def context(store: GraphMem, opts: Opts, ask: ContextKeywords, session: str = SessionArg,
            task: str = TaskArg) -> None:
    """context(TASK) with SESSION's working memory first and the gaps to ask about.

    Example: graphmem working context s1 "deploy the release" --budget-tokens 2000 -t acme
    """
    ctx = _wm(store, session).context(task, **ask)
    typer.echo(ctx.model_dump_json() if opts.as_json else ctx.render())


@cmds("close", actor=True)
def close(store: GraphMem, opts: Opts, session: str = SessionArg,
          given: Optional[str] = typer.Argument(None, metavar="[OUTCOME]", help="success or failure (or --outcome)"),
          outcome: Optional[str] = typer.Option(None, help="success or failure"), task: Optional[str] = None,
          steps: List[str] = typer.Option([], "--step", help="a step taken (repeatable)"),
          errors: List[str] = typer.Option([], "--error", help="an error met (repeatable)"),
          wrong_memory: List[str] = typer.Option([], "--wrong-memory", help="a fact that proved wrong"),
          area: Optional[str] = typer.Option(None, help="the playbook area the outcome is recorded under")) -> Any:
    """The end gate: what SESSION learned goes to long-term memory; the outcome is recorded.

    Example: graphmem working close s1 success --task "deploy" --step "migrate" -t acme
    """
    if given is not None and outcome is not None and given != outcome:
        raise ValidationError(f"two outcomes given: {given!r} and --outcome {outcome!r}")
    if (given or outcome) is None:
        raise ValidationError("give the outcome: graphmem working close SESSION success (or failure)")
    said = cast("Literal['success', 'failure']", given or outcome)  # the end gate checks it
    return _wm(store, session).close(said, task=task, steps=steps or None, errors=errors or None,
                                     wrong_memory=wrong_memory or None, area=area)


@cmds("list", lean=True)
def list_sessions(store: GraphMem, opts: Opts, status: Optional[str] = typer.Option(None, help="open or closed"),
                  limit: int = 100) -> Any:
    """The tenant's working sessions, most recently active first (mem.working_sessions).

    Example: graphmem working list --status open -t acme
    """
    return store.working_sessions(status=cast("Literal['open', 'closed'] | None", status), limit=limit)  # checked there
