"""Batches and upkeep: apply (mem.apply_many), import (mem.apply_bulk), ingest, ingest-bulk, add,
schema (mem.install_schema), rebuild, sweep, embed-pending, drop-tenant."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Literal, Optional, cast

import typer

from ...core.errors import ValidationError
from .common import Commands, Opts, open_store, read_input

if TYPE_CHECKING:
    from ...core.fields import SourceKind
    from ...store.client import GraphMem

cmds = Commands()
register = cmds.register

# --batch-size is the client's name (batch_size=); --batch, the older spelling, still works.
BatchSizeOpt = typer.Option(500, "--batch-size", "--batch", help="messages per transaction")


def events_of(text: str) -> list[Any]:
    """A JSON array, or JSON lines, of objects."""
    try:
        if text.lstrip().startswith("["):
            return list(json.loads(text))
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    except ValueError as e:
        raise ValidationError(f"not JSON or JSON lines: {e}") from e
    except RecursionError as e:
        raise ValidationError("nested too deeply to be an event (JSON more than a few hundred levels deep)") from e


@cmds("apply", actor=True)
def apply(store: GraphMem, opts: Opts, file: Path = typer.Argument(..., help="a JSON array or JSONL file of events, "
                                                                       "docs/format.md ('-' for stdin)")) -> Any:
    """Apply events (docs/format.md) in order (mem.apply_many). Every event is checked first: a
    malformed line anywhere writes nothing; one the store refuses stops the run ("N applied; event K refused").

    Example: graphmem apply events.jsonl --tenant acme
    """
    results = store.apply_many(events_of(read_input(file)))
    return results if opts.as_json else {"applied": len(results)}


@cmds("import", actor=True, catch=(OSError, ValueError))
def import_(store: GraphMem, opts: Opts,
            files: List[Path] = typer.Argument(..., help="JSONL/JSON event files, or temporal-KG train/valid/test.txt"),
            kind: str = typer.Option("auto", "--format", help="auto, events or kg"),
            batch_size: int = typer.Option(2000, "--batch-size", "--batch", help="events per transaction")) -> None:
    """Load files through the bulk API (mem.apply_bulk) with a progress bar; print events, facts,
    seconds, rejects. Exit status 1 when anything was rejected or the server went away (then it
    stops at once: re-run the same command to resume; what landed is skipped).

    Example: graphmem import ~/TILP/data/YAGO11k/train.txt --tenant yago   (a folder imports its train/valid/test.txt)
    """
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from ..importer import import_files
    with Progress(TextColumn("importing"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,} events"),
                  TimeElapsedColumn(), transient=opts.as_json, disable=opts.as_json) as bar:
        task = bar.add_task("import", total=0)
        summary = import_files(store, files, kind=kind, batch_size=batch_size,
                               progress=lambda done, total: bar.update(task, completed=done, total=total))
    data = summary.to_json()
    if opts.as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        typer.echo(f"{data['events']:,} events, {data['facts']:,} facts in {data['seconds']}s "
                   f"({data['events_per_s'] or 0:,.0f} events/s), {data['rejected']} rejected")
        for r in summary.rejects[:20]:
            typer.echo(f"  rejected {r['where']}: {r['reason']}")
    if summary.interrupted is not None:
        typer.echo(f"Error: import stopped at {summary.resume_from}: {summary.interrupted}. "
                   f"{data['events']:,} events were written before it; re-run the same command to resume "
                   "(what landed is skipped).", err=True)
        raise typer.Exit(1)
    if summary.rejects:
        raise typer.Exit(1)


@cmds("ingest", actor=True)
def ingest(store: GraphMem, opts: Opts, text: str, speaker: str = typer.Option(..., help="who said it"),
           id: str = typer.Option(..., "--id", help="the message id (its source id)"),
           at: Optional[str] = typer.Option(None, help="when it was said (default now)"),
           about: Optional[str] = typer.Option(None, help="the thing under discussion"),
           session: Optional[str] = None,
           kind: str = typer.Option("message", help="message, email, tool, document or import"),
           drawn_as: str = typer.Option("stated", "--drawn-as", help="stated (the speaker's own words) or "
                                                                    "inferred (what is drawn is an L2 candidate)"),
           relayed_by: Optional[str] = typer.Option(None, help="the agent that relayed the speaker's words "
                                                               "(answers drawn from them say so)"),
           reason: Optional[str] = typer.Option(None, help="why (kept in the ledger)"),
           recorded_at: Optional[str] = typer.Option(None, help="record time (default now)")) -> Any:
    """Free text: the extractor draws the events; the message becomes their source. Prints what
    it drew (subject, topic, value, validity), or that it drew nothing.

    Example: graphmem ingest "我9月20日起搬到河湾路。" --speaker lin --id m2 --at 2026-09-18T10:00:00Z
    """
    result = store.ingest(text, id=id, speaker=speaker, at=at, about=about, session=session,
                          kind=cast("SourceKind", kind), drawn_as=cast("Literal['stated', 'inferred']", drawn_as),
                          relayed_by=relayed_by, reason=reason, recorded_at=recorded_at)  # the client checks both
    page = store.events_page(after=result.seq - 1, limit=1)
    drawn = drawn_of(page[0]) if page and page[0]["seq"] == result.seq else []
    if opts.as_json:
        return {**result.model_dump(mode="json", exclude_none=True), "drawn": drawn}
    if result.duplicate:
        return f"message {id} was already ingested (event {result.seq}); nothing new written"
    if not drawn:
        return f"message {id} kept (event {result.seq}); nothing drawn from it"
    return "\n".join([f"message {id} (event {result.seq}) drew:"] + [f"  {drawn_line(d)}" for d in drawn])


def drawn_of(event: dict[str, Any]) -> list[dict[str, Any]]:
    """The events a message event drew (its ledger payload's ``drawn``)."""
    payload = event.get("payload")
    if isinstance(payload, str):
        payload = json.loads(payload)
    return list((payload or {}).get("drawn") or [])


def drawn_line(d: dict[str, Any]) -> str:
    """One drawn event: op, subject · topic, value, validity, authority/status."""
    what = d.get("value") if d.get("value") is not None else d.get("object")
    if d.get("op") == "episode":
        head = f"episode  {d.get('who', d.get('subject', '?'))}: {d.get('what', '')}"
    else:
        head = f"{d.get('op', '?'):7}  {d.get('subject', '?')} · {d.get('topic', '?')}" + \
            (f" [{d['env']}]" if d.get("env") else "") + (f" = {what}" if what is not None else "")
    lo, hi = d.get("valid_from") or d.get("effective") or d.get("start"), d.get("valid_to") or d.get("end")
    when = f"  from {str(lo)[:10]}" if lo else ""
    when += f" until {str(hi)[:10]}" if hi else ""
    marks = [m for m in (d.get("authority"), d.get("status")) if m]
    return head + when + (f"  ({', '.join(marks)})" if marks else "")


@cmds("ingest-bulk", actor=True)
def ingest_bulk(store: GraphMem, opts: Opts,
                file: Path = typer.Argument(..., help='JSON array or JSONL of {"id","speaker","text","at"?,…} '
                                                      "('-' for stdin)"),
                batch_size: int = BatchSizeOpt,
                embed: bool = typer.Option(True, "--embed/--no-embed", help="embed the messages for recall")) -> Any:
    """A transcript at once, each message through the extractor like `ingest`; ids are idempotency
    ids, so loading the same transcript twice writes nothing new.

    Example: graphmem ingest-bulk conv-26.jsonl -t conv-26 --json
    """
    return store.ingest_bulk(events_of(read_input(file)), batch_size=batch_size, embed=embed)


@cmds("add", actor=True)
def add(store: GraphMem, opts: Opts,
        file: Path = typer.Argument(..., help='JSON array or JSONL of chat rows {"role","content","name"?,"id"?,'
                                              '"created_at"?} (or {"id","speaker","text",…}); "-" for stdin'),
        user: Optional[str] = typer.Option(None, help="the person a user row without a name is (default: user)"),
        session: Optional[str] = typer.Option(None, help="the session of rows that name none"),
        at: Optional[str] = typer.Option(None, help="the time of rows that give none (default now)"),
        batch_size: int = BatchSizeOpt,
        embed: bool = typer.Option(True, "--embed/--no-embed", help="embed the messages for recall")) -> Any:
    """A conversation in the OpenAI / LangChain shape (mem.add): `role` decides who speaks (user rows
    are the user's words; assistant, system and tool rows give at most L2 candidates); ids are made
    when absent, so adding the same rows again writes nothing new.

    Example: graphmem add chat.jsonl --user lin --session s1 -t acme --json
    """
    return store.add(events_of(read_input(file)), user=user, session=session, at=at, batch_size=batch_size,
                     embed=embed)


@cmds("schema", tenant=False, as_json=False, store=False)
def schema(opts: Opts) -> None:
    """Install graphmem's constraints and indexes (idempotent) and mark the database with the
    schema's version, so that later clients check the marker with one read instead.

    Example: graphmem schema
    """
    with open_store(opts, install_schema=False) as store:
        store.install_schema()
    typer.echo("schema installed")


@cmds("rebuild", as_json=False)
def rebuild(store: GraphMem, opts: Opts, batch: int = typer.Option(2000, help="events replayed a transaction")
            ) -> None:
    """Drop the tenant's projection and replay its ledger from empty.

    Example: graphmem rebuild -t acme
    """
    typer.echo(f"replayed {store.rebuild(batch=batch)} events")


@cmds("sweep", as_json=False, actor=True)
def sweep(store: GraphMem, opts: Opts) -> None:
    """Record the expiry of every fact whose expires_at (or topic TTL) has come, as ledger events.

    Example: graphmem sweep -t acme
    """
    typer.echo(f"expired {store.sweep()} facts")


@cmds("embed-pending")
def embed_pending(store: GraphMem, opts: Opts,
                  limit: int = typer.Option(10_000, help="embeddings written a transaction")) -> Any:
    """Bring the fact embeddings of recall's vector leg up to the ledger (needs GRAPHMEM_EMBEDDER).

    Example: GRAPHMEM_EMBEDDER=hashing graphmem embed-pending -t acme
    """
    n = store.embed_pending(limit=limit)
    return {"embedded": n} if opts.as_json else f"embedded {n} facts"


@cmds("drop-tenant")
def drop_tenant(store: GraphMem, opts: Opts,
                yes: bool = typer.Option(False, "--yes", help="really delete the tenant, ledger included"),
                batch: int = typer.Option(2000, help="nodes deleted a transaction")) -> Any:
    """Delete everything the tenant has, ledger included (irreversible; for tests and evaluation).

    Example: graphmem drop-tenant -t scratch --yes
    """
    if not yes:
        raise ValidationError(f"drop-tenant deletes all of tenant {opts.tenant!r}, ledger included: add --yes")
    store.drop_tenant(batch=batch)
    return {"dropped": opts.tenant} if opts.as_json else f"dropped tenant {opts.tenant}"
