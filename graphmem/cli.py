"""The ``graphmem`` command: a thin mirror of the client, verb for verb.

Each command parses its options, makes one library call and prints the result (``--json`` for
machines). Only :class:`graphmem.errors.GraphMemError` is caught: it becomes one line
``Error: …`` and exit status 1. No logic of its own lives here.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional

import typer

from . import server as local_server
from .errors import GraphMemError, ValidationError
from .settings import Settings

app = typer.Typer(help="graphmem: a temporal memory store for AI agents, kept in Neo4j.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
server_app = typer.Typer(help="The local Neo4j (no Docker needed).", no_args_is_help=True)
app.add_typer(server_app, name="server")
playbook_app = typer.Typer(help="L3 experience cards and L4 workflows.", no_args_is_help=True)
app.add_typer(playbook_app, name="playbook")
user_app = typer.Typer(help="The L1 user page: a subject's confirmed facts as user.md; edits go to the ledger.",
                       no_args_is_help=True)
app.add_typer(user_app, name="user")

UriOpt = typer.Option(None, "--uri", envvar="NEO4J_URI", help="bolt:// or neo4j:// URI (default: the local server)")
DbOpt = typer.Option(None, "--database", envvar="NEO4J_DATABASE", help="database name (default: the server's)")
TenantOpt = typer.Option("default", "--tenant", "-t", help="tenant scope")
JsonOpt = typer.Option(False, "--json", help="print JSON")


def _fail(e: GraphMemError) -> None:
    typer.echo(f"Error: {e}", err=True)
    raise typer.Exit(1)


@contextmanager
def _store(uri: str | None, database: str | None, tenant: str, actor: str | None = None) -> Iterator[Any]:
    from .client import GraphMem
    try:
        with GraphMem(Settings.from_env(uri=uri, database=database), tenant=tenant, actor=actor) as store:
            yield store
    except GraphMemError as e:
        _fail(e)


def _print(obj: Any, as_json: bool) -> None:
    if hasattr(obj, "model_dump"):
        data = obj.model_dump(mode="json", exclude_none=True)
    elif isinstance(obj, list):
        data = [o.model_dump(mode="json", exclude_none=True) if hasattr(o, "model_dump") else o for o in obj]
    else:
        data = obj
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False, default=str))
    elif isinstance(data, list):
        for row in data:
            typer.echo("  ".join(f"{k}={v}" for k, v in row.items()))
    elif isinstance(data, dict):
        for k, v in data.items():
            typer.echo(f"{k}: {v}")
    else:
        typer.echo(str(data))


# -- server -------------------------------------------------------------------------------------


@server_app.command("start")
def server_start(bolt_port: int = typer.Option(7687, help="Bolt port on 127.0.0.1"),
                 http_port: int = typer.Option(7474, help="HTTP/Browser port on 127.0.0.1"),
                 no_auth: bool = typer.Option(False, "--no-auth", help="no password: any local process may connect"),
                 timeout: float = typer.Option(240.0, help="seconds to wait for Bolt to answer"),
                 as_json: bool = JsonOpt) -> None:
    """Start the local Neo4j (idempotent); returns when Bolt answers. Auth is on: the first start
    generates a password in GRAPHMEM_HOME/neo4j-password (owner-readable only), which graphmem finds.

    Example: graphmem server start
    """
    try:
        info = local_server.start(bolt_port=bolt_port, http_port=http_port, auth=not no_auth, timeout=timeout)
        # The schema once, here, rather than on a user's first call (a no-op check when it is there).
        from .client import GraphMem
        with GraphMem(Settings.from_env(uri=info.bolt_uri)):
            pass
    except GraphMemError as e:
        _fail(e)
    if as_json:
        typer.echo(local_server.info_json(info))
    else:
        login = (f"user neo4j, password in {local_server.password_file()}" if info.auth else "no auth")
        typer.echo(f"Neo4j is running.\nBolt URI:    {info.bolt_uri}\nBrowser URL: {info.browser_url}\n"
                   f"Login:       {login}")


@server_app.command("stop")
def server_stop(as_json: bool = JsonOpt) -> None:
    """Stop the local Neo4j cleanly; its data stays.

    Example: graphmem server stop
    """
    try:
        info = local_server.stop()
    except GraphMemError as e:
        _fail(e)
    typer.echo(local_server.info_json(info) if as_json else "Neo4j is stopped; data kept in " + info.data_dir)


@server_app.command("status")
def server_status(as_json: bool = JsonOpt) -> None:
    """Say whether the local Neo4j runs, and where its data lives.

    Example: graphmem server status --json
    """
    info = local_server.status()
    typer.echo(local_server.info_json(info) if as_json else info.describe())


# -- store --------------------------------------------------------------------------------------


@app.command("schema")
def schema(uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt) -> None:
    """Install graphmem's constraints and indexes (idempotent) and mark the database with the
    schema's version, so that later clients check the marker with one read instead.

    Example: graphmem schema
    """
    from .client import GraphMem
    try:
        with GraphMem(Settings.from_env(uri=uri, database=database), install_schema=False) as store:
            store.install_schema()
    except GraphMemError as e:
        _fail(e)
    typer.echo("schema installed")


@app.command("apply")
def apply(file: Path = typer.Argument(..., help="a JSON array or JSONL file of events, docs/format.md ('-' for stdin)"),
          tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt,
          as_json: bool = JsonOpt) -> None:
    """Apply events (docs/format.md) in order; stops at the first refused event.

    Example: graphmem apply events.jsonl --tenant acme
    """
    text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    stripped = text.lstrip()
    events = json.loads(text) if stripped.startswith("[") else [json.loads(line) for line in text.splitlines() if line.strip()]
    with _store(uri, database, tenant) as store:
        try:
            results = store.apply_many(events)
        except GraphMemError as e:
            _fail(e)
    _print(results if as_json else {"applied": len(results)}, as_json)


@app.command("import")
def import_(files: list[Path] = typer.Argument(..., help="JSONL/JSON event files, or temporal-KG train/valid/test.txt"),
            kind: str = typer.Option("auto", "--format", help="auto, events or kg"),
            batch: int = typer.Option(2000, help="events per transaction"),
            tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt,
            as_json: bool = JsonOpt) -> None:
    """Load files through the bulk API with a progress bar; print events, facts, seconds, rejects.

    Example: graphmem import ~/TILP/data/YAGO11k/train.txt --tenant yago   (a folder imports its train/valid/test.txt)
    """
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from .importer import import_files
    with _store(uri, database, tenant) as store:
        with Progress(TextColumn("importing"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,} events"),
                      TimeElapsedColumn(), transient=as_json, disable=as_json) as bar:
            task = bar.add_task("import", total=0)
            try:
                summary = import_files(store, files, kind=kind, batch_size=batch,
                                       progress=lambda done, total: bar.update(task, completed=done, total=total))
            except (GraphMemError, OSError, ValueError) as e:
                typer.echo(f"Error: {e}", err=True)
                raise typer.Exit(1)
    data = summary.to_json()
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    typer.echo(f"{data['events']:,} events, {data['facts']:,} facts in {data['seconds']}s "
               f"({data['events_per_s'] or 0:,.0f} events/s), {data['rejected']} rejected")
    for r in summary.rejects[:20]:
        typer.echo(f"  rejected {r['where']}: {r['reason']}")


@app.command("as-of")
def as_of(subject: str, topic: str, valid_at: Optional[str] = typer.Option(None, help="valid time (default now)"),
          known_at: Optional[str] = typer.Option(None, help="record time (default now)"),
          env: Optional[str] = None, session: Optional[str] = None,
          include_candidates: bool = typer.Option(False, "--include-candidates"),
          tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt,
          as_json: bool = JsonOpt) -> None:
    """What holds for SUBJECT's TOPIC at a valid time, as known at a record time.

    Example: graphmem as-of lin home_address --valid-at 2026-10-05 -t t-addr
    """
    with _store(uri, database, tenant) as store:
        try:
            _print(store.as_of(subject, topic, valid_at=valid_at, known_at=known_at, env=env, session=session,
                               include_candidates=include_candidates), as_json)
        except GraphMemError as e:
            _fail(e)


@app.command("history")
def history(subject: str, topic: str, known_at: Optional[str] = None, env: Optional[str] = None,
            tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt,
            as_json: bool = JsonOpt) -> None:
    """The valid-time timeline of SUBJECT's TOPIC as known at a record time.

    Example: graphmem history deploy port -t t-port --json
    """
    with _store(uri, database, tenant) as store:
        try:
            _print(store.history(subject, topic, known_at=known_at, env=env), as_json)
        except GraphMemError as e:
            _fail(e)


@app.command("why")
def why(subject: str, topic: str, valid_at: Optional[str] = None, known_at: Optional[str] = None,
        env: Optional[str] = None, tenant: str = TenantOpt, uri: Optional[str] = UriOpt,
        database: Optional[str] = DbOpt, as_json: bool = JsonOpt) -> None:
    """The source behind the answer and the change point it replaced.

    Example: graphmem why deploy port --valid-at 2026-11-01T10:40:00Z -t t-port
    """
    with _store(uri, database, tenant) as store:
        try:
            _print(store.why(subject, topic, valid_at=valid_at, known_at=known_at, env=env), as_json)
        except GraphMemError as e:
            _fail(e)


@app.command("episodes")
def episodes(who: Optional[str] = typer.Option(None, help="whose episodes (a speaker / subject id)"),
             since: Optional[str] = typer.Option(None, help="episodes that end after this time"),
             until: Optional[str] = typer.Option(None, help="episodes that start before this time"),
             text: Optional[str] = typer.Option(None, help="the activity or place contains this text"),
             known_at: Optional[str] = typer.Option(None, help="record time (default now)"),
             limit: int = typer.Option(50, help="at most this many, newest first"),
             tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt,
             as_json: bool = JsonOpt) -> None:
    """What people said they did, and when: stored episodes overlapping [since, until).

    Example: graphmem episodes --who caroline --since 2023-05-01 --until 2023-06-01 -t conv-26
    """
    with _store(uri, database, tenant) as store:
        try:
            _print(store.episodes(who=who, since=since, until=until, text=text, known_at=known_at, limit=limit),
                   as_json)
        except GraphMemError as e:
            _fail(e)


@app.command("path")
def path(start: str, topics: list[str] = typer.Argument(..., help="topics to follow, in order"),
         valid_at: Optional[str] = None, known_at: Optional[str] = None, env: Optional[str] = None,
         tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt,
         as_json: bool = JsonOpt) -> None:
    """Follow entity-valued topics from START, every hop at the same valid and record time.

    Example: graphmem path apollo managed_by home_city --valid-at 2026-07-15 -t t-hop
    """
    with _store(uri, database, tenant) as store:
        try:
            _print(store.path(start, topics, valid_at=valid_at, known_at=known_at, env=env), as_json)
        except GraphMemError as e:
            _fail(e)


@app.command("erase")
def erase(subject: Optional[str] = typer.Option(None, help="erase everything about this subject"),
          source: Optional[str] = typer.Option(None, help="erase this source and what was drawn from it"),
          confirm: Optional[str] = typer.Option(None, "--confirm", help="confirm this pending erase request"),
          cancel: Optional[str] = typer.Option(None, "--cancel", help="withdraw this pending erase request"),
          show: Optional[str] = typer.Option(None, "--show", help="print what this pending request would remove"),
          actor: str = typer.Option(..., help="who asks or confirms (kept in the tombstone)"),
          reason: Optional[str] = typer.Option(None, help="why (kept in the tombstone)"),
          tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt,
          as_json: bool = JsonOpt) -> None:
    """Right to be forgotten: remove content everywhere, keep a content-free tombstone, rebuild.
    Also confirms (or cancels) an erase request an agent filed with MCP 'forget'.

    Example: graphmem erase --subject lin --actor dpo --reason "GDPR request 12" -t acme
    Example: graphmem erase --confirm er-5f1c0a2b9d3e --actor lin -t acme
    """
    with _store(uri, database, tenant, actor) as store:
        try:
            if confirm:
                _print(store.confirm_erase(confirm, reason=reason), as_json)
            elif cancel:
                _print(store.cancel_erase(cancel, reason=reason), as_json)
            elif show:
                _print(store.erase_request(show), as_json)
            else:
                if reason is None:
                    raise ValidationError("an erase needs --reason")
                _print(store.erase(subject=subject, source=source, actor=actor, reason=reason), as_json)
        except GraphMemError as e:
            _fail(e)


app.command("forget", help="Same as erase.\n\nExample: graphmem forget --subject lin --actor dpo --reason gdpr")(erase)


@app.command("verify")
def verify(tenant: str = TenantOpt, replay: bool = typer.Option(True, "--replay/--no-replay",
                                                               help="also compare the projection with a replay"),
           uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt, as_json: bool = JsonOpt) -> None:
    """Check the tenant's hash-chained ledger (and its projection against a replay); print the first
    break. Exit 1 when anything is broken.

    Example: graphmem verify -t acme
    """
    with _store(uri, database, tenant) as store:
        try:
            report = store.verify(replay=replay)
        except GraphMemError as e:
            _fail(e)
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False))
    else:
        brk = report["first_break"]
        typer.echo(f"{tenant}: {report['events']} events, chain {'ok' if report['chain_ok'] else 'BROKEN'}"
                   + (f" at seq {brk['seq']}: {brk['problem']}" if brk else "")
                   + ("" if "projection_ok" not in report else
                      f"; projection {'ok' if report['projection_ok'] else 'DIFFERED (rebuilt from the ledger)'}")
                   + f"\nhead hash: {report['head_hash']}")
    if not report["ok"]:
        raise typer.Exit(1)


@app.command("audit")
def audit(since: str = typer.Option("1970-01-01", help="from this record time"),
          until: Optional[str] = typer.Option(None, help="up to this record time (default now)"),
          subject: Optional[str] = typer.Option(None, help="only events that touched this subject"),
          tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt,
          as_json: bool = JsonOpt) -> None:
    """Who changed what, when and why: the ledger as an audit trail, with what each change replaced.

    Example: graphmem audit --since 2026-11-01 --subject lin -t acme --json
    """
    with _store(uri, database, tenant) as store:
        try:
            rows = store.audit(since=since, until=until, subject=subject)
        except GraphMemError as e:
            _fail(e)
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, default=str))
        return
    for r in rows:
        facts = ", ".join(f"{f.get('subject')}.{f.get('topic')}={f.get('value')}" for f in r["facts"])
        before = ", ".join(str(f.get("value")) for f in r["replaced"])
        typer.echo(f"#{r['seq']} {r['recorded_at']} {r['op']:<8} by {r['actor'] or '-'}"
                   f"{' (' + r['reason'] + ')' if r['reason'] else ''}  {facts}{'  was: ' + before if before else ''}")


@app.command("sweep")
def sweep(tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt) -> None:
    """Record the expiry of every fact whose expires_at (or topic TTL) has come, as ledger events.

    Example: graphmem sweep -t acme
    """
    with _store(uri, database, tenant) as store:
        try:
            n = store.sweep()
        except GraphMemError as e:
            _fail(e)
    typer.echo(f"expired {n} facts")


@app.command("rebuild")
def rebuild(tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt) -> None:
    """Drop the tenant's projection and replay its ledger from empty.

    Example: graphmem rebuild -t acme
    """
    with _store(uri, database, tenant) as store:
        try:
            n = store.rebuild()
        except GraphMemError as e:
            _fail(e)
    typer.echo(f"replayed {n} events")


@app.command("eval")
def eval_(files: Optional[list[Path]] = typer.Argument(None, help="scenario files (docs/format.md)"),
          examples: bool = typer.Option(False, "--examples", help="also run the example files shipped with graphmem"),
          keep: bool = typer.Option(False, help="keep the scenario tenants for inspection"),
          recall: bool = typer.Option(False, "--recall", help="also ask every as_of query through context()"),
          uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt, as_json: bool = JsonOpt) -> None:
    """Run scenario files; one line per failure, then 'N passed, M failed' and the two accuracies
    (with --recall, a third: does context() show what as_of answers?).

    Example: graphmem eval --examples --recall   (or: graphmem eval my-scenarios.json)
    """
    from . import examples as shipped
    from .evaluation import run_files
    files = list(files or []) + (shipped.files() if examples else [])
    if not files:
        typer.echo("Error: give scenario files, or --examples for the ones shipped with graphmem", err=True)
        raise typer.Exit(2)
    with _store(uri, database, "default") as store:
        try:
            report = run_files(store, [str(f) for f in files], keep=keep, recall=recall)
        except (GraphMemError, OSError, ValueError) as e:
            typer.echo(f"Error: {e}", err=True)
            raise typer.Exit(1)
    for f in report.failures:
        typer.echo(f.line())
    for line in report.summary_lines():
        typer.echo(line)
    if as_json:
        typer.echo(json.dumps(report.to_json(), ensure_ascii=False, default=str))
    raise typer.Exit(1 if report.failed else 0)


@app.command("ingest")
def ingest(text: str, speaker: str = typer.Option(..., help="who said it"),
           id: str = typer.Option(..., "--id", help="the message id (its source id)"),
           at: Optional[str] = typer.Option(None, help="when it was said (default now)"),
           about: Optional[str] = typer.Option(None, help="the thing under discussion"),
           session: Optional[str] = None, tenant: str = TenantOpt, uri: Optional[str] = UriOpt,
           database: Optional[str] = DbOpt, as_json: bool = JsonOpt) -> None:
    """Free text: the extractor draws the events; the message becomes their source.

    Example: graphmem ingest "我9月20日起搬到河湾路。" --speaker lin --id m2 --at 2026-09-18T10:00:00Z
    """
    with _store(uri, database, tenant) as store:
        try:
            _print(store.ingest(text, id=id, speaker=speaker, at=at, about=about, session=session), as_json)
        except GraphMemError as e:
            _fail(e)


@app.command("context")
def context(task: str = typer.Argument(..., help="what the agent is about to do, in its own words"),
            subject: Optional[str] = typer.Option(None, help="scope to this subject and its neighbourhood"),
            valid_at: Optional[str] = typer.Option(None, help="valid time (default now)"),
            known_at: Optional[str] = typer.Option(None, help="record time (default now)"),
            env: Optional[str] = None, session: Optional[str] = None,
            budget: int = typer.Option(1500, "--budget", help="token budget of the rendered context"),
            include_candidates: bool = typer.Option(False, "--include-candidates"),
            hops: int = typer.Option(2, help="graph expansion from the subject: 0, 1 or 2 relations"),
            area: Optional[str] = typer.Option(None, help="playbook area for rules and cards"),
            tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt,
            as_json: bool = JsonOpt) -> None:
    """What an agent should know for TASK: facts with validity, sources, versions, warnings;
    rules and cards; a summary — fitted to a token budget. Prints the prompt text (or --json).

    Example: graphmem context "where do I send lin's package?" --subject lin --valid-at 2026-10-05 -t t-addr
    """
    with _store(uri, database, tenant) as store:
        try:
            ctx = store.context(task, subject=subject, valid_at=valid_at, known_at=known_at, env=env, session=session,
                                budget_tokens=budget, include_candidates=include_candidates, hops=hops, area=area)
        except GraphMemError as e:
            _fail(e)
        if as_json:
            typer.echo(ctx.model_dump_json())
        else:
            typer.echo(ctx.render())


@app.command("summary")
def summary(subject: str, topic: Optional[str] = None,
            no_rebuild: bool = typer.Option(False, "--no-rebuild", help="refuse a stale summary instead of rebuilding"),
            tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt,
            as_json: bool = JsonOpt) -> None:
    """The deterministic summary of SUBJECT (a derived copy), rebuilt first if its facts changed.

    Example: graphmem summary lin -t t-addr --json
    """
    with _store(uri, database, tenant) as store:
        try:
            view = store.summary(subject, topic, rebuild=not no_rebuild)
        except GraphMemError as e:
            _fail(e)
        if as_json:
            typer.echo(view.model_dump_json())
        else:
            typer.echo(view.text)


@user_app.command("show")
def user_show(subject: str, out: Optional[Path] = typer.Option(None, "--out", help="write the page to this file"),
              tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt,
              as_json: bool = JsonOpt) -> None:
    """SUBJECT's confirmed, explicitly stated facts as a user.md page.

    Example: graphmem user show lin -t t-addr --out user.md
    """
    with _store(uri, database, tenant) as store:
        try:
            page = store.user_page(subject)
        except GraphMemError as e:
            _fail(e)
        if out is not None:
            out.write_text(page, encoding="utf-8")
        if as_json:
            typer.echo(json.dumps({"subject": subject, "page": page}, ensure_ascii=False))
        elif out is None:
            typer.echo(page, nl=False)


@user_app.command("apply")
def user_apply(subject: str, file: Path = typer.Argument(..., help="the edited page ('-' for stdin)"),
               actor: Optional[str] = typer.Option(None, help="who edited it (default: the subject)"),
               tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt,
               as_json: bool = JsonOpt) -> None:
    """Turn the edits of a user page into ledger events (one atomic batch).

    Example: graphmem user show lin --out user.md; $EDITOR user.md; graphmem user apply lin user.md
    """
    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except OSError as e:
        _fail(GraphMemError(f"cannot read {file}: {e}"))
    with _store(uri, database, tenant) as store:
        try:
            events = store.apply_user_page(subject, text, actor=actor)
        except GraphMemError as e:
            _fail(e)
        if as_json:
            typer.echo(json.dumps(events, ensure_ascii=False))
        elif not events:
            typer.echo("no changes")
        else:
            for e in events[1:]:
                typer.echo(f"{e['op']:7} {e.get('topic', e.get('fact', ''))} {e.get('value', '')}".rstrip())


def _playbook(tenant: str, uri: str | None, database: str | None, as_json: bool, call: Any) -> None:
    with _store(uri, database, tenant) as store:
        try:
            _print(call(store.playbooks), as_json)
        except GraphMemError as e:
            _fail(e)


@playbook_app.command("list")
def playbook_list(area: Optional[str] = None, tenant: str = TenantOpt, uri: Optional[str] = UriOpt,
                  database: Optional[str] = DbOpt, as_json: bool = JsonOpt) -> None:
    """Workflows (with their current version) and experience cards.

    Example: graphmem playbook list --area deploy-db --json
    """
    _playbook(tenant, uri, database, as_json,
              lambda pb: {"workflows": pb.workflows(), "cards": pb.cards(area=area)})


@playbook_app.command("show")
def playbook_show(name: str = typer.Argument(..., help="a workflow name or a card id"), tenant: str = TenantOpt,
                  uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt, as_json: bool = JsonOpt) -> None:
    """One workflow with its versions and approvals, or one card with its evidence.

    Example: graphmem playbook show deploy-db
    """
    _playbook(tenant, uri, database, as_json,
              lambda pb: pb.card(name) if name.startswith("c-") else pb.workflow(name))


@playbook_app.command("draft")
def playbook_draft(task: str, steps: list[str] = typer.Option(..., "--step", help="a step, in order (repeat)"),
                   outcome: str = typer.Option(..., help="success or failure"),
                   error: list[str] = typer.Option([], "--error", help="an error seen (repeat)"),
                   area: Optional[str] = None, tenant: str = TenantOpt, uri: Optional[str] = UriOpt,
                   database: Optional[str] = DbOpt, as_json: bool = JsonOpt) -> None:
    """Record a task outcome; after a failure then a success a card is drafted.

    Example: graphmem playbook draft deploy-db --step "run migrations" --step "restart service" --outcome success
    """
    _playbook(tenant, uri, database, as_json,
              lambda pb: pb.record_outcome(task, steps, outcome, error, area=area) or {"card": None})


@playbook_app.command("request-promotion")
def playbook_request(card: str, workflow: str = typer.Option(...), owner: str = typer.Option(...),
                     text: str = typer.Option(...), scenario: str = typer.Option(...),
                     input: list[str] = typer.Option(..., "--input"), output: list[str] = typer.Option(..., "--output"),
                     tool: list[str] = typer.Option([], "--tool"), rule: list[str] = typer.Option(..., "--rule"),
                     requested_by: Optional[str] = None, tenant: str = TenantOpt, uri: Optional[str] = UriOpt,
                     database: Optional[str] = DbOpt, as_json: bool = JsonOpt) -> None:
    """Ask to promote a card to a workflow version; runs the static check and the replay.

    Example: graphmem playbook request-promotion c-1 --workflow deploy-db --owner alice --text "..." --scenario deploy-db --input release --output report --rule "must: run migrations"
    """
    _playbook(tenant, uri, database, as_json, lambda pb: pb.request_promotion(
        card, workflow=workflow, owner=owner, text=text, scenario=scenario, inputs=input, outputs=output,
        tool_permissions=tool, validation_rules=rule, requested_by=requested_by))


@playbook_app.command("approve")
def playbook_approve(workflow: str, version: str, approver: str = typer.Option(...),
                     hash: str = typer.Option(..., "--hash", help="the content hash you reviewed"),
                     comment: Optional[str] = None, tenant: str = TenantOpt, uri: Optional[str] = UriOpt,
                     database: Optional[str] = DbOpt, as_json: bool = JsonOpt) -> None:
    """Publish a version: only the owner (or a delegate), only the content that was checked.

    Example: graphmem playbook approve deploy-db v-123 --approver alice --hash 3f2a...
    """
    _playbook(tenant, uri, database, as_json, lambda pb: pb.approve(workflow, version, approver=approver,
                                                                    version_hash=hash, comment=comment))


@playbook_app.command("reject")
def playbook_reject(workflow: str, version: str, actor: str = typer.Option(...), reason: Optional[str] = None,
                    tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt,
                    as_json: bool = JsonOpt) -> None:
    """Reject a requested version (owner or delegate).

    Example: graphmem playbook reject deploy-db v-123 --actor alice --reason "too broad"
    """
    _playbook(tenant, uri, database, as_json,
              lambda pb: pb.reject_version(workflow, version, actor=actor, reason=reason))


@playbook_app.command("rollback")
def playbook_rollback(workflow: str, actor: str = typer.Option(...), tenant: str = TenantOpt,
                      uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt, as_json: bool = JsonOpt) -> None:
    """Make the previous approved version current again (owner or delegate).

    Example: graphmem playbook rollback deploy-db --actor alice
    """
    _playbook(tenant, uri, database, as_json, lambda pb: pb.rollback(workflow, actor=actor))


@playbook_app.command("feedback")
def playbook_feedback(workflow: str, success: bool = typer.Option(..., "--success/--failure"),
                      tenant: str = TenantOpt, uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt,
                      as_json: bool = JsonOpt) -> None:
    """Count a use of the current version; flags a regression against the version it replaced.

    Example: graphmem playbook feedback deploy-db --failure
    """
    _playbook(tenant, uri, database, as_json, lambda pb: pb.feedback(workflow, success=success))


@app.command("mcp")
def mcp(tenant: str = typer.Option(..., "--tenant", "-t", help="the one tenant this server may touch"),
        user: Optional[str] = typer.Option(None, "--user", help="the person whose words 'remember' records"),
        agent: str = typer.Option("agent", "--agent", help="the actor of every event this server writes"),
        trust_agent_writes: bool = typer.Option(False, "--trust-agent-writes",
                                                help="take the agent's own assertions as stated (L1, confirmed)"),
        allow_erase: bool = typer.Option(False, "--allow-erase",
                                         help="let 'forget' erase irreversibly without a person's confirmation"),
        uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt) -> None:
    """Serve the store to agents over MCP (stdio). Tenant, user and agent are fixed here, never by the model.

    Example: graphmem mcp --tenant acme --user lin --agent claude
    """
    try:
        from .mcp_server import main as serve
    except ImportError as e:
        typer.echo("Error: the MCP server needs the 'mcp' package: pip install 'graphmem[mcp]'", err=True)
        raise typer.Exit(1) from e
    try:
        serve(tenant, Settings.from_env(uri=uri, database=database), user=user, agent=agent,
              trust_agent_writes=trust_agent_writes, allow_erase=allow_erase)
    except GraphMemError as e:
        _fail(e)


bench_app = typer.Typer(help="Benchmarks, never tests: ingest, as-of, paths, context() and rebuild at scale against a "
                             "raw-Cypher baseline; `graphmem bench recall` for context() on LoCoMo.\n\n"
                             "Example: graphmem bench --facts 100000 --json", no_args_is_help=False)
app.add_typer(bench_app, name="bench")


@bench_app.callback(invoke_without_command=True)
def bench(ctx: typer.Context, facts: int = typer.Option(10_000, help="how many facts to load"),
          sweep: Optional[str] = typer.Option(None, help="comma-separated sizes, e.g. 10000,100000,1000000"),
          out: Path = typer.Option(Path("bench/results"), help="where --sweep writes JSON and the plot"),
          data: Optional[list[Path]] = typer.Option(None, help="a temporal-KG folder or files (YAGO11k/WIKIDATA12k: see docs/data.md)"),
          lookups: int = typer.Option(10_000, help="as-of lookups to time"),
          contexts: int = typer.Option(300, help="context() calls to time (each also without a subject)"),
          messages: int = typer.Option(0, help="conversation turns to add before timing context()"),
          writers: Optional[str] = typer.Option(None, help="load test instead: writer processes, e.g. 1,2,4,8"),
          tenants: str = typer.Option("1", help="with --writers: writers dealt over this many tenants, e.g. 1,8"),
          events: int = typer.Option(400, help="with --writers: events per writer"),
          batch: int = typer.Option(10, help="with --writers: events per transaction"),
          readers: int = typer.Option(2, help="with --writers: as_of reader processes running alongside"),
          keep: bool = typer.Option(False, help="keep the bench tenants"),
          uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt, as_json: bool = JsonOpt) -> None:
    """Ingest, as-of, paths, context() and rebuild at scale against a raw-Cypher baseline (not a test);
    with --writers, many writers and readers at once, checked for lost or duplicated events.

    Example: graphmem bench --facts 100000 --json
    Example: graphmem bench --writers 1,2,4,8 --tenants 1,8
    """
    if ctx.invoked_subcommand is not None:
        return  # `graphmem bench recall …`
    from . import bench as bench_mod
    log = (lambda line: typer.echo(line, err=True))
    with _store(uri, database, "bench") as store:
        try:
            if writers:
                from .bench_load import sweep_load
                load = sweep_load(store, [int(x) for x in writers.split(",")], [int(x) for x in tenants.split(",")],
                                  out, log=log, events=events, batch=batch, readers=readers, keep=keep)
                typer.echo(json.dumps(load) if as_json else f"written to {out / 'load.json'}")
                return
            if sweep:
                sizes = [int(x) for x in sweep.split(",") if x.strip()]
                results = bench_mod.sweep(store, sizes, out, log=log, files=data, lookups=lookups, contexts=contexts,
                                          keep=keep, messages=messages)
                typer.echo(json.dumps(results[-1]))
                return
            result = bench_mod.run(store, facts=facts, files=data, lookups=lookups, contexts=contexts, log=log,
                                   keep=keep, messages=messages)
        except GraphMemError as e:
            _fail(e)
    typer.echo(result.table())
    if as_json:
        typer.echo(json.dumps(result.data))


@bench_app.command("recall")
def bench_recall(locomo: Path = typer.Option(..., "--locomo", help="LoCoMo's data/locomo10.json (fetched by you)"),
                 conversations: Optional[str] = typer.Option(None, help="comma-separated ids (default: all ten)"),
                 out: Path = typer.Option(Path("bench/results"), help="where the JSON and the plot go"),
                 preset: Optional[str] = typer.Option(None, "--config", help="a recall preset (default, facts, conversation)"),
                 keep: bool = typer.Option(False, help="keep the bench tenants"),
                 uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt, as_json: bool = JsonOpt) -> None:
    """Evidence recall of context() on LoCoMo, against BM25 and recency in the same run (a benchmark).

    Example: graphmem bench recall --locomo ~/data/locomo10.json --conversations conv-26,conv-30
    """
    from . import bench_recall as br
    with _store(uri, database, "bench") as store:
        try:
            result = br.run(store, locomo, conversations=conversations.split(",") if conversations else None,
                            keep=keep, config=preset, log=(lambda s: None) if as_json else
                            (lambda s: typer.echo(s, err=True)))
        except GraphMemError as e:
            _fail(e)
    br.save(result, out)
    br.plot(result, out)
    typer.echo(json.dumps(result) if as_json else br.table(result))


@app.command("bench-extract")
def bench_extract(n: int = typer.Option(2000, "--messages", help="how many messages"), as_json: bool = JsonOpt,
                  labelled: Optional[Path] = typer.Option(None, "--labelled", help="a labelled .jsonl set: score it"),
                  misses: bool = typer.Option(False, "--misses", help="with --labelled: list the sentences missed"),
                  locomo: Optional[Path] = typer.Option(None, "--locomo", help="LoCoMo's data/locomo10.json: yield per "
                                                                               "conversation"),
                  conversations: Optional[list[str]] = typer.Option(None, "--conversation",
                                                                    help="with --locomo: only this one (repeat)"),
                  sample: int = typer.Option(0, "--sample", help="with --locomo: dump this many drawn events"),
                  seed: int = typer.Option(0, "--seed", help="with --sample: the random seed"),
                  out: Optional[Path] = typer.Option(None, "--out", help="with --sample: the JSONL file to write")) -> None:
    """Messages per second through the default extractor (a benchmark, not a test); with
    --labelled FILE, precision and recall per rule family on that labelled set instead; with
    --locomo FILE, how many turns of LoCoMo draw at least one event (fact or episode).

    Example: graphmem bench-extract --messages 5000
    Example: graphmem bench-extract --labelled tests/data/extraction/heldout.jsonl
    Example: graphmem bench-extract --locomo locomo10.json --conversation conv-26 --sample 200 --seed 1 --out s.jsonl
    """
    if locomo is not None:
        from .bench_extract import run_locomo
        try:
            _print(run_locomo(locomo, conversations or None, sample, seed, out), as_json)
        except (OSError, ValueError, KeyError) as e:
            typer.echo(f"Error: cannot read {locomo}: {e}", err=True)
            raise typer.Exit(1)
        return
    if labelled is None:
        from .bench_extract import run
        _print(run(n), as_json)
        return
    from .bench_extract import run_labelled
    try:
        result = run_labelled(labelled)
    except (OSError, ValueError, KeyError) as e:
        typer.echo(f"Error: cannot score {labelled}: {e}", err=True)
        raise typer.Exit(1)
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
        return
    typer.echo(result["table"])
    if misses:
        for miss in result["misses"]:
            typer.echo(json.dumps(miss, ensure_ascii=False))


@app.command("demo")
def demo(tenant: str = typer.Option("demo", "--tenant", "-t", help="the tenant to load it into (emptied first)"),
         uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt) -> None:
    """Load the address/port story into tenant 'demo' and print its as-of answers.

    Example: graphmem demo
    """
    from .demo import run_demo
    with _store(uri, database, tenant) as store:
        try:
            for line in run_demo(store):
                typer.echo(line)
        except GraphMemError as e:
            _fail(e)
    typer.echo(f"Browser: {local_server.status().browser_url}  (try the queries in cypher/, tenant '{tenant}')")


from .cli_working import register as _register_working  # noqa: E402  (working memory and stats)

_register_working(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
