"""``graphmem working …`` and ``graphmem stats``: the CLI's mirror of ``mem.working(session)`` and
``mem.stats()``, verb for verb (``add``, ``items``, ``use``, ``checkpoint``, ``resume``, ``context``,
``close``; ``working list`` is ``mem.working_sessions()``). Kept beside cli.py, registered by it."""

from __future__ import annotations

import json
from typing import Any, List, Optional

import typer

from .errors import GraphMemError, ValidationError

working_app = typer.Typer(help="Working memory of a session: items under a token budget, checkpoints, the end gate.",
                          no_args_is_help=True)


def _cli() -> Any:
    from . import cli
    return cli


def _json_arg(text: str | None, what: str) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError as e:
        _cli()._fail(ValidationError(f"{what} must be JSON: {e}"))


def _wm(store: Any, session: str, budget: int | None, strategy: str | None) -> Any:
    return store.working(session, budget_tokens=budget, strategy=strategy)


SessionArg = typer.Argument(..., help="the working session's id")
BudgetOpt = typer.Option(None, "--budget", help="token budget of the session (recorded at the next write)")
StrategyOpt = typer.Option(None, "--strategy", help="evict or compress, when the budget is full")


def _call(session: str, tenant: str, uri: Optional[str], database: Optional[str], fn: Any,
          budget: int | None = None, strategy: str | None = None, actor: str | None = None) -> Any:
    cli = _cli()
    with cli._store(uri, database, tenant, actor) as store:
        try:
            return fn(_wm(store, session, budget, strategy))
        except GraphMemError as e:
            cli._fail(e)


def register(app: typer.Typer) -> None:
    """Add ``working`` and ``stats`` to the ``graphmem`` command."""
    cli = _cli()
    app.add_typer(working_app, name="working")

    @working_app.command("add")
    def add(session: str = SessionArg, text: str = typer.Argument(..., help="the item's text"),
            type: str = typer.Option("turn", "--type", help="turn, tool_result, decision, hypothesis, instruction, todo"),
            role: Optional[str] = typer.Option(None, help="user, agent, tool or system"),
            author: Optional[str] = None, importance: float = 0.5,
            id: Optional[str] = typer.Option(None, "--id", help="idempotency id of the item"),
            cite: List[str] = typer.Option([], "--cite", help="an item this one cites (repeatable)"),
            claim: Optional[str] = typer.Option(None, help='JSON {"subject","topic","value"} of a decision'),
            temporary: bool = typer.Option(False, "--temporary", help="a task parameter: never long-term"),
            source: Optional[str] = typer.Option(None, help="a tool result's source id"),
            budget: Optional[int] = BudgetOpt, strategy: Optional[str] = StrategyOpt,
            actor: Optional[str] = typer.Option(None, envvar="GRAPHMEM_ACTOR"),
            tenant: str = cli.TenantOpt, uri: Optional[str] = cli.UriOpt, database: Optional[str] = cli.DbOpt,
            as_json: bool = cli.JsonOpt) -> None:
        """Add an item to SESSION's working memory (compressing or evicting to keep the budget)."""
        c = _json_arg(claim, "--claim")
        r = _call(session, tenant, uri, database, lambda w: w.add(
            text, type=type, role=role, author=author, importance=importance, id=id, cites=cite or None, claim=c,
            temporary=temporary, source=source), budget, strategy, actor)
        cli._print(r, as_json)

    @working_app.command("items")
    def items(session: str = SessionArg, include_evicted: bool = typer.Option(False, "--include-evicted"),
              tenant: str = cli.TenantOpt, uri: Optional[str] = cli.UriOpt, database: Optional[str] = cli.DbOpt,
              as_json: bool = cli.JsonOpt) -> None:
        """SESSION's items, in the order they were added."""
        cli._print(_call(session, tenant, uri, database, lambda w: w.items(include_evicted=include_evicted)),
                   as_json)

    @working_app.command("use")
    def use(session: str = SessionArg, ids: List[str] = typer.Argument(..., help="item ids"),
            tenant: str = cli.TenantOpt, uri: Optional[str] = cli.UriOpt, database: Optional[str] = cli.DbOpt,
            as_json: bool = cli.JsonOpt) -> None:
        """Record that the agent used these items."""
        cli._print(_call(session, tenant, uri, database, lambda w: w.use(*ids)), as_json)

    @working_app.command("checkpoint")
    def checkpoint(session: str = SessionArg, state: str = typer.Argument(..., help="the task state as JSON"),
                   id: Optional[str] = typer.Option(None, "--id", help="idempotency id of the checkpoint"),
                   tenant: str = cli.TenantOpt, uri: Optional[str] = cli.UriOpt, database: Optional[str] = cli.DbOpt,
                   as_json: bool = cli.JsonOpt) -> None:
        """Record the task's state; resume returns the latest."""
        s = _json_arg(state, "STATE")
        cli._print(_call(session, tenant, uri, database, lambda w: w.checkpoint(s, id=id)), as_json)

    @working_app.command("resume")
    def resume(session: str = SessionArg, tenant: str = cli.TenantOpt, uri: Optional[str] = cli.UriOpt,
               database: Optional[str] = cli.DbOpt, as_json: bool = cli.JsonOpt) -> None:
        """Where a restarted agent picks SESSION up: the last checkpoint and the live items."""
        cli._print(_call(session, tenant, uri, database, lambda w: w.resume()), as_json)

    @working_app.command("context")
    def context(session: str = SessionArg, task: str = typer.Argument(...),
                valid_at: Optional[str] = None, subject: Optional[str] = None,
                budget: int = typer.Option(1500, "--budget", help="token budget of the rendered context"),
                tenant: str = cli.TenantOpt, uri: Optional[str] = cli.UriOpt, database: Optional[str] = cli.DbOpt,
                as_json: bool = cli.JsonOpt) -> None:
        """context(TASK) with SESSION's working memory first and the gaps to ask about."""
        ctx = _call(session, tenant, uri, database, lambda w: w.context(task, valid_at=valid_at, subject=subject,
                                                                          budget_tokens=budget))
        typer.echo(ctx.model_dump_json() if as_json else ctx.render())

    @working_app.command("close")
    def close(session: str = SessionArg, outcome: str = typer.Option(..., help="success or failure"),
              task: Optional[str] = None, step: List[str] = typer.Option([], "--step", help="a step taken (repeatable)"),
              error: List[str] = typer.Option([], "--error", help="an error met (repeatable)"),
              wrong_memory: List[str] = typer.Option([], "--wrong-memory", help="a fact that proved wrong"),
              actor: Optional[str] = typer.Option(None, envvar="GRAPHMEM_ACTOR"),
              tenant: str = cli.TenantOpt, uri: Optional[str] = cli.UriOpt, database: Optional[str] = cli.DbOpt,
              as_json: bool = cli.JsonOpt) -> None:
        """The end gate: what SESSION learned goes to long-term memory; the outcome is recorded."""
        cli._print(_call(session, tenant, uri, database, lambda w: w.close(
            outcome, task=task, steps=step or None, errors=error or None, wrong_memory=wrong_memory or None),
            actor=actor), as_json)

    @working_app.command("list")
    def list_sessions(status: Optional[str] = typer.Option(None, help="open or closed"), limit: int = 100,
                      tenant: str = cli.TenantOpt, uri: Optional[str] = cli.UriOpt,
                      database: Optional[str] = cli.DbOpt, as_json: bool = cli.JsonOpt) -> None:
        """The tenant's working sessions (mem.working_sessions)."""
        with cli._store(uri, database, tenant) as store:
            try:
                rows = store.working_sessions(status=status, limit=limit)
            except GraphMemError as e:
                cli._fail(e)
            cli._print(rows, as_json)

    @app.command("stats")
    def stats(since: Optional[str] = typer.Option(None, "--since", help="start of the window (default: 30 days ago)"),
              tenant: List[str] = typer.Option(["default"], "--tenant", "-t", help="tenant (repeatable)"),
              uri: Optional[str] = cli.UriOpt, database: Optional[str] = cli.DbOpt, as_json: bool = cli.JsonOpt) -> None:
        """Per tenant: writes by op and author, candidates waiting, conflicts open, summaries stale,
        working sessions open, task success rate, repeated failures, wrong-memory rate, tokens per context."""
        out = []
        for t in tenant:
            with cli._store(uri, database, t) as store:
                try:
                    out.append(store.stats(since=since))
                except GraphMemError as e:
                    cli._fail(e)
        if as_json:
            typer.echo(json.dumps([s.model_dump(mode="json") for s in out], ensure_ascii=False))
        else:
            typer.echo("\n".join(s.text() for s in out))
