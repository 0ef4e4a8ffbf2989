"""Reads: as-of, history, history-values, why, path, episodes, assertions, events, ping, round-trip,
stats. Each mirrors the client method of the same name (``mem.as_of`` → ``graphmem as-of``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from .common import Commands, DbOpt, JsonOpt, Opts, UriOpt, open_store

if TYPE_CHECKING:
    from ...store.client import GraphMem

cmds = Commands()
register = cmds.register

ValidAt = typer.Option(None, help="valid time (default now)")
KnownAt = typer.Option(None, help="record time (default now)")
EnvOpt = typer.Option(None, help="environment (e.g. prod) of an env-scoped topic")
SessionOpt = typer.Option(None, help="also the facts scoped to this task session")
CandidatesOpt = typer.Option(False, "--include-candidates", help="also unconfirmed candidates (marked)")


@cmds("as-of", lean=True)
def as_of(store: GraphMem, opts: Opts, subject: str, topic: str, valid_at: Optional[str] = ValidAt,
          known_at: Optional[str] = KnownAt, env: Optional[str] = EnvOpt, session: Optional[str] = SessionOpt,
          include_candidates: bool = CandidatesOpt) -> Any:
    """What holds for SUBJECT's TOPIC at a valid time, as known at a record time.

    Example: graphmem as-of lin home_address --valid-at 2026-10-05 -t t-addr
    """
    return store.as_of(subject, topic, valid_at=valid_at, known_at=known_at, env=env, session=session,
                       include_candidates=include_candidates)


@cmds("history", lean=True)
def history(store: GraphMem, opts: Opts, subject: str, topic: str, known_at: Optional[str] = KnownAt,
            env: Optional[str] = EnvOpt, session: Optional[str] = SessionOpt,
            include_candidates: bool = CandidatesOpt) -> Any:
    """The valid-time timeline of SUBJECT's TOPIC as known at a record time.

    Example: graphmem history deploy port -t t-port --json
    """
    return store.history(subject, topic, known_at=known_at, env=env, session=session,
                         include_candidates=include_candidates)


@cmds("history-values", lean=True)
def history_values(store: GraphMem, opts: Opts, subject: str, topic: str, known_at: Optional[str] = KnownAt,
                   env: Optional[str] = EnvOpt, session: Optional[str] = SessionOpt,
                   include_candidates: bool = CandidatesOpt) -> Any:
    """The history as the evaluation format counts it: values in the order they became valid,
    repeats merged.

    Example: graphmem history-values deploy port -t t-port
    """
    return store.history_values(subject, topic, known_at=known_at, env=env, session=session,
                                include_candidates=include_candidates)


@cmds("why", lean=True)
def why(store: GraphMem, opts: Opts, subject: str, topic: str, valid_at: Optional[str] = ValidAt,
        known_at: Optional[str] = KnownAt, env: Optional[str] = EnvOpt, session: Optional[str] = SessionOpt,
        include_candidates: bool = CandidatesOpt) -> Any:
    """The source behind the answer and the change point it replaced.

    Example: graphmem why deploy port --valid-at 2026-11-01T10:40:00Z -t t-port
    """
    return store.why(subject, topic, valid_at=valid_at, known_at=known_at, env=env, session=session,
                     include_candidates=include_candidates)


@cmds("path", lean=True)
def path(store: GraphMem, opts: Opts, start: str,
         path: List[str] = typer.Argument(..., metavar="TOPICS...", help="topics to follow, in order"),
         valid_at: Optional[str] = ValidAt, known_at: Optional[str] = KnownAt, env: Optional[str] = EnvOpt,
         session: Optional[str] = SessionOpt, include_candidates: bool = CandidatesOpt) -> Any:
    """Follow entity-valued topics from START, every hop at the same valid and record time.

    Example: graphmem path apollo managed_by home_city --valid-at 2026-07-15 -t t-hop
    """
    return store.path(start, path, valid_at=valid_at, known_at=known_at, env=env, session=session,
                      include_candidates=include_candidates)


@cmds("episodes", lean=True)
def episodes(store: GraphMem, opts: Opts,
             who: Optional[str] = typer.Option(None, help="whose episodes (a speaker / subject id)"),
             since: Optional[str] = typer.Option(None, help="episodes that end after this time"),
             until: Optional[str] = typer.Option(None, help="episodes that start before this time"),
             text: Optional[str] = typer.Option(None, help="the activity or place contains this text"),
             known_at: Optional[str] = KnownAt,
             limit: int = typer.Option(50, help="at most this many, newest first")) -> Any:
    """What people said they did, and when: stored episodes overlapping [since, until).

    Example: graphmem episodes --who caroline --since 2023-05-01 --until 2023-06-01 -t conv-26
    """
    return store.episodes(who=who, since=since, until=until, text=text, known_at=known_at, limit=limit)


@cmds("messages", lean=True)
def messages(store: GraphMem, opts: Opts, session: str,
             limit: int = typer.Option(1000, help="at most this many, in the order they were said")) -> Any:
    """SESSION's messages in the order they were said (a chat history, as `graphmem add` stored it).

    Example: graphmem messages s1 -t acme
    """
    return store.messages(session, limit=limit)


@cmds("assertions", lean=True)
def assertions(store: GraphMem, opts: Opts, subject: str, topic: str, env: Optional[str] = EnvOpt) -> Any:
    """Every assertion ever made about SUBJECT's TOPIC (candidates, revoked, retracted too), as
    the rules see them.

    Example: graphmem assertions deploy port -t t-port --json
    """
    return [_plain(a) for a in store.assertions(subject, topic, env=env)]


@cmds("events", lean=True, aliases=("events-page",))
def events(store: GraphMem, opts: Opts, after: int = typer.Option(0, help="only entries after this sequence number"),
           limit: Optional[int] = typer.Option(None, help="at most this many (default: all)")) -> None:
    """The tenant's ledger in order (seq, op, payload, recorded_at, actor, ...), one JSON object a
    line (mem.events; with --limit, one page: mem.events_page).

    Example: graphmem events -t acme --after 120 --limit 50
    """
    rows = store.events_page(after=after, limit=limit) if limit is not None else store.events(after=after)
    for r in rows:
        typer.echo(json.dumps(r, ensure_ascii=False, default=str))


@cmds("ping", lean=True, tenant=False)
def ping(store: GraphMem, opts: Opts) -> Any:
    """The server's agent string: does a Neo4j answer at the URI?

    Example: graphmem ping --uri bolt://127.0.0.1:7687
    """
    agent = store.ping()
    return {"agent": agent} if opts.as_json else agent


@cmds("round-trip", lean=True, tenant=False)
def round_trip(store: GraphMem, opts: Opts, runs: int = typer.Option(5, help="how many round trips to time")) -> Any:
    """Time a read that does nothing (RETURN 1) through the path every read takes: the floor
    under a read's latency, in milliseconds.

    Example: graphmem round-trip --runs 20
    """
    import time
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        store.round_trip()
        times.append(round((time.perf_counter() - t0) * 1000, 3))
    return {"runs": runs, "ms": times, "p50_ms": sorted(times)[len(times) // 2]}


@cmds("stats", store=False, lean=True)
def stats(opts: Opts, since: Optional[str] = typer.Option(None, "--since", help="start of the window "
                                                                              "(default: 30 days ago)"),
          tenant: List[str] = typer.Option(["default"], "--tenant", "-t", help="tenant (repeatable)"),
          uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt, as_json: bool = JsonOpt) -> None:
    """Per tenant: writes by op and author, candidates waiting, conflicts open, summaries stale,
    working sessions open, task success rate, repeated failures, wrong-memory rate, tokens per context.

    Example: graphmem stats -t acme -t beta --since 2026-11-01
    """
    out = []
    for t in tenant:
        with open_store(opts, tenant=t) as store:
            out.append(store.stats(since=since))
    if as_json:
        typer.echo(json.dumps([s.model_dump(mode="json") for s in out], ensure_ascii=False))
    else:
        typer.echo("\n".join(s.text() for s in out))


def _plain(obj: Any) -> Any:
    """An assertion (a dataclass) as a dict."""
    import dataclasses
    return dataclasses.asdict(obj) if dataclasses.is_dataclass(obj) and not isinstance(obj, type) else obj
