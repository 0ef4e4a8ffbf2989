"""Governance: erase (``forget``), request-erase, erase-request, confirm-erase, cancel-erase, verify,
audit — mirrors of the client's methods of the same names (graphmem.governance.governance, graphmem.governance.erasure,
graphmem.store.chain)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Optional

import typer

from ...core.errors import ValidationError
from .common import Commands, Opts

if TYPE_CHECKING:
    from ...store.client import GraphMem

cmds = Commands()
register = cmds.register

ReasonOpt = typer.Option(None, help="why (kept in the tombstone)")
RequestArg = typer.Argument(..., help="the request id (er-…)")


@cmds("erase", actor=True, aliases=("forget",))
def erase(store: GraphMem, opts: Opts,
          subject: Optional[str] = typer.Option(None, help="erase everything about this subject"),
          source: Optional[str] = typer.Option(None, help="erase this source and what was drawn from it"),
          confirm: Optional[str] = typer.Option(None, "--confirm", help="confirm this pending erase request"),
          cancel: Optional[str] = typer.Option(None, "--cancel", help="withdraw this pending erase request"),
          show: Optional[str] = typer.Option(None, "--show", help="print what this pending request would remove"),
          actor: str = typer.Option(..., help="who asks or confirms (kept in the tombstone)"),
          reason: Optional[str] = ReasonOpt) -> Any:
    """Right to be forgotten: remove content everywhere, keep a content-free tombstone, rebuild.
    Also confirms (or cancels) an erase request an agent filed with MCP 'forget' (as confirm-erase,
    cancel-erase and erase-request do). `graphmem forget` is the same command.

    Example: graphmem erase --subject lin --actor dpo --reason "GDPR request 12" -t acme
    Example: graphmem erase --confirm er-5f1c0a2b9d3e --actor lin -t acme
    """
    if confirm:
        return store.confirm_erase(confirm, reason=reason)
    if cancel:
        return store.cancel_erase(cancel, reason=reason)
    if show:
        return store.erase_request(show)
    if reason is None:
        raise ValidationError("an erase needs --reason")
    return store.erase(subject=subject, source=source, actor=actor, reason=reason)


@cmds("request-erase", actor=True)
def request_erase(store: GraphMem, opts: Opts, subject: Optional[str] = typer.Option(None, help="about this subject"),
                  source: Optional[str] = typer.Option(None, help="this source and what was drawn from it"),
                  actor: str = typer.Option(..., help="who asks"), reason: Optional[str] = ReasonOpt) -> Any:
    """File an erase request: what it would remove stops taking part at once (reversibly); nothing
    is erased until a person confirms it with confirm-erase.

    Example: graphmem request-erase --subject lin --actor agent --reason "user asked" -t acme
    """
    return store.request_erase(subject=subject, source=source, reason=reason)


@cmds("erase-request")
def erase_request(store: GraphMem, opts: Opts, request: str = RequestArg) -> Any:
    """A pending erase request: what it would remove, who asked, why.

    Example: graphmem erase-request er-5f1c0a2b9d3e -t acme --json
    """
    return store.erase_request(request)


@cmds("confirm-erase", actor=True)
def confirm_erase(store: GraphMem, opts: Opts, request: str = RequestArg,
                  actor: str = typer.Option(..., help="the person who confirms"),
                  reason: Optional[str] = ReasonOpt) -> Any:
    """Confirm a pending erase request as --actor: the irreversible erase.

    Example: graphmem confirm-erase er-5f1c0a2b9d3e --actor lin -t acme
    """
    return store.confirm_erase(request, reason=reason)


@cmds("cancel-erase", actor=True)
def cancel_erase(store: GraphMem, opts: Opts, request: str = RequestArg,
                 actor: str = typer.Option(..., help="who withdraws it"), reason: Optional[str] = ReasonOpt) -> Any:
    """Withdraw a pending erase request: what it held back takes part again from now on.

    Example: graphmem cancel-erase er-5f1c0a2b9d3e --actor lin -t acme
    """
    return store.cancel_erase(request, reason=reason)


@cmds("verify")
def verify(store: GraphMem, opts: Opts, replay: bool = typer.Option(True, "--replay/--no-replay",
                                                               help="also compare the projection with a replay")
           ) -> None:
    """Check the tenant's hash-chained ledger (and its projection against a replay); print the
    first break. Exit 1 when anything is broken.

    Example: graphmem verify -t acme
    """
    report = store.verify(replay=replay)
    if opts.as_json:
        typer.echo(json.dumps(report, ensure_ascii=False))
    else:
        brk = report["first_break"]
        typer.echo(f"{opts.tenant}: {report['events']} events, chain {'ok' if report['chain_ok'] else 'BROKEN'}"
                   + (f" at seq {brk['seq']}: {brk['problem']}" if brk else "")
                   + ("" if "projection_ok" not in report else
                      f"; projection {'ok' if report['projection_ok'] else 'DIFFERED (rebuilt from the ledger)'}")
                   + f"\nhead hash: {report['head_hash']}")
    if not report["ok"]:
        raise typer.Exit(1)


@cmds("audit", lean=True)
def audit(store: GraphMem, opts: Opts, since: str = typer.Option("1970-01-01", help="from this record time"),
          until: Optional[str] = typer.Option(None, help="up to this record time (default now)"),
          subject: Optional[str] = typer.Option(None, help="only events that touched this subject")) -> None:
    """Who changed what, when and why: the ledger as an audit trail, with what each change replaced.

    Example: graphmem audit --since 2026-11-01 --subject lin -t acme --json
    """
    rows = store.audit(since=since, until=until, subject=subject)
    if opts.as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, default=str))
        return
    for r in rows:
        facts = ", ".join(f"{f.get('subject')}.{f.get('topic')}={f.get('value')}" for f in r["facts"])
        before = ", ".join(str(f.get("value")) for f in r["replaced"])
        typer.echo(f"#{r['seq']} {r['recorded_at']} {r['op']:<8} by {r['actor'] or '-'}"
                   f"{' (' + r['reason'] + ')' if r['reason'] else ''}  {facts}{'  was: ' + before if before else ''}")
