"""Browsing memory: search (mem.search), facts (mem.facts), candidates (mem.candidates) — what a
user of another memory library looks for first (docs/search.md). Each prints one memory a line
(``--json``: the models)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Optional

import typer

from .common import Commands, Opts, to_data

if TYPE_CHECKING:
    from ...store.client import GraphMem

cmds = Commands()
register = cmds.register


def _when(m: Any) -> str:
    if m.valid_from is None and m.valid_to is None:
        return ""
    lo = m.valid_from.date().isoformat() if m.valid_from else "…"
    hi = m.valid_to.date().isoformat() if m.valid_to else "…"
    return f" [{lo} → {hi})"


def line(m: Any, score: bool = False) -> str:
    """One memory as one line: kind, subject · topic, value, validity, source, warnings."""
    if m.kind == "message":
        what = f"{m.subject}: {json.dumps((m.text or '')[:160], ensure_ascii=False)}"
    else:
        value = " | ".join(map(str, m.conflict)) if m.conflict else m.value
        what = f"{m.subject} · {m.topic}" + (f" [{m.env}]" if m.env else "") + f" = {value}"
        if m.kind == "episode" and m.where:
            what += f" at {m.where}"
    parts = [f"{m.score:.4f}" if score else "", f"{m.kind:9}", what + _when(m)]
    if m.source is not None:
        parts.append(f"(source {m.source.id})")
    if m.id and m.kind in ("fact", "candidate", "conflict"):
        parts.append(f"fact {m.id}" + (f" ref {m.ref}" if m.ref else ""))
    if m.warnings:
        parts.append("! " + "; ".join(w.kind for w in m.warnings))
    return "  ".join(p for p in parts if p)


def _show(found: list[Any], opts: Opts, score: bool = False, empty: str = "nothing found") -> None:
    if opts.as_json:
        typer.echo(json.dumps(to_data(found), ensure_ascii=False, default=str))
    elif not found:
        typer.echo(empty)
    else:
        for m in found:
            typer.echo(line(m, score))


@cmds("search", lean=False)
def search(store: GraphMem, opts: Opts, query: str = typer.Argument(..., help="what to look for, in your own words"),
           subject: Optional[str] = typer.Option(None, help="scope to this subject and its neighbourhood"),
           valid_at: Optional[str] = typer.Option(None, help="valid time (default now)"),
           known_at: Optional[str] = typer.Option(None, help="record time (default now)"),
           limit: int = typer.Option(10, help="at most this many memories (1-500)"),
           env: Optional[str] = None, session: Optional[str] = None,
           include_candidates: bool = typer.Option(False, "--include-candidates", help="also unconfirmed candidates"),
           episodes: bool = typer.Option(True, "--episodes/--no-episodes", help="also what people said they did"),
           config: Optional[str] = typer.Option(None, "--config", help="a recall preset: default, facts, "
                                                                       "conversation")) -> None:
    """The memories that match QUERY, best first, with scores: facts, conflicts, messages, episodes
    (candidates with --include-candidates) — the legs of `context` without its rendering.

    Example: graphmem search "where does lin live?" --subject lin -t t-addr
    """
    found = store.search(query, subject=subject, valid_at=valid_at, known_at=known_at, limit=limit, env=env,
                         session=session, include_candidates=include_candidates, episodes=episodes, config=config)
    if opts.as_json:
        typer.echo(found.model_dump_json(exclude_none=True))
        return
    _show(found.memories, opts, score=True)
    for note in found.notes:
        typer.echo(f"note: {note}", err=True)


@cmds("facts", lean=True)
def facts(store: GraphMem, opts: Opts, subject: str,
          include_candidates: bool = typer.Option(False, "--include-candidates",
                                                  help="also the subject's waiting candidates, marked"),
          valid_at: Optional[str] = typer.Option(None, help="valid time (default now)"),
          known_at: Optional[str] = typer.Option(None, help="record time (default now)")) -> None:
    """Every fact that holds for SUBJECT, one per topic (and environment), as as-of answers each.

    Example: graphmem facts lin --include-candidates -t t-addr
    """
    _show(store.facts(subject, include_candidates=include_candidates, valid_at=valid_at, known_at=known_at), opts,
          empty=f"no facts hold for {subject!r}")


@cmds("candidates", lean=True)
def candidates(store: GraphMem, opts: Opts, subject: Optional[str] = typer.Option(None, help="only this subject's"),
               known_at: Optional[str] = typer.Option(None, help="record time (default now)"),
               limit: int = typer.Option(1000, help="at most this many")) -> None:
    """The candidate facts waiting for a confirm or a reject (`graphmem confirm REF`, or
    `confirm --fact ID`; `reject` alike).

    Example: graphmem candidates --subject lin -t t-addr
    """
    _show(store.candidates(subject=subject, known_at=known_at, limit=limit), opts, empty="no candidates wait")
