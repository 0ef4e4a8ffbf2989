"""The local side: ``server start|stop|status`` (the local Neo4j), ``mcp`` (serve the store to
agents), ``demo`` and ``eval`` (scenario files)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from .common import Commands, Opts, open_store

if TYPE_CHECKING:
    from ...store.client import GraphMem

cmds = Commands()
server_cmds = Commands()


def register(app: typer.Typer) -> None:
    """Add ``server``, ``mcp``, ``demo`` and ``eval`` to ``app``."""
    app.add_typer(server_cmds.register(typer.Typer(help="The local Neo4j (no Docker needed).\n\n"
                                                        "Example: graphmem server start", no_args_is_help=True)),
                  name="server")
    cmds.register(app)


@server_cmds("start", store=False, tenant=False, connect=False)
def server_start(opts: Opts, bolt_port: int = typer.Option(7687, help="Bolt port on 127.0.0.1"),
                 http_port: int = typer.Option(7474, help="HTTP/Browser port on 127.0.0.1"),
                 no_auth: bool = typer.Option(False, "--no-auth", help="no password: any local process may connect"),
                 timeout: float = typer.Option(240.0, help="seconds to wait for Bolt to answer"),
                 tx_log_retention: Optional[str] = typer.Option(
                     None, help="transaction log Neo4j keeps (db.tx_log.rotation.retention_policy): "
                                "'false' = only what recovery needs, or e.g. '100M size'; default 1G size")) -> None:
    """Start the local Neo4j (idempotent); returns when Bolt answers. Auth is on: the first start
    generates a password in GRAPHMEM_HOME/neo4j-password (owner-readable only), which graphmem finds.
    The home's folders and files are made owner-only (0700/0600). Erased text lingers in Neo4j's
    transaction logs until they are pruned: --tx-log-retention false keeps the least.

    Example: graphmem server start
    """
    from ...local import server as local_server
    info = local_server.start(bolt_port=bolt_port, http_port=http_port, auth=not no_auth, timeout=timeout,
                              tx_log_retention=tx_log_retention)
    # The schema once, here, rather than on a user's first call (a no-op check when it is there).
    with open_store(Opts(uri=info.bolt_uri)):
        pass
    if opts.as_json:
        typer.echo(local_server.info_json(info))
    else:
        login = (f"user neo4j, password in {local_server.password_file()}" if info.auth else "no auth")
        typer.echo(f"Neo4j is running.\nBolt URI:    {info.bolt_uri}\nBrowser URL: {info.browser_url}\n"
                   f"Login:       {login}")


@server_cmds("stop", store=False, tenant=False, connect=False)
def server_stop(opts: Opts, bolt_port: Optional[int] = typer.Option(
        None, help="the Bolt port of the server to stop (default: GRAPHMEM_HOME's server, else 7687)")) -> None:
    """Stop the local Neo4j cleanly; its data stays. The server of GRAPHMEM_HOME, else the graphmem
    server on --bolt-port whichever home started it; anything else on the port is left alone (an error).

    Example: graphmem server stop
    """
    from ...local import server as local_server
    info = local_server.stop(bolt_port=bolt_port)
    typer.echo(local_server.info_json(info) if opts.as_json else "Neo4j is stopped; data kept in " + info.data_dir)


@server_cmds("status", store=False, tenant=False, connect=False)
def server_status(opts: Opts, bolt_port: Optional[int] = typer.Option(
        None, help="the Bolt port to look at (default: GRAPHMEM_HOME's server, else 7687)")) -> None:
    """Say whether the local Neo4j runs, from which home, and where its data lives; a graphmem server
    on --bolt-port started from another home counts, and anything else on the port is named.

    Example: graphmem server status --json
    """
    from ...local import server as local_server
    info = local_server.status(bolt_port=bolt_port)
    typer.echo(local_server.info_json(info) if opts.as_json else info.describe())


@cmds("mcp", store=False, as_json=False)
def mcp(opts: Opts, tenant: str = typer.Option(..., "--tenant", "-t", help="the one tenant this server may touch"),
        user: Optional[str] = typer.Option(None, "--user", help="the person whose words 'remember' records"),
        agent: str = typer.Option("agent", "--agent", help="the actor of every event this server writes"),
        trust_agent_writes: bool = typer.Option(False, "--trust-agent-writes",
                                                help="take the agent's own assertions as stated (L1, confirmed)"),
        allow_erase: bool = typer.Option(False, "--allow-erase",
                                         help="let 'forget' erase irreversibly without a person's confirmation")
        ) -> None:
    """Serve the store to agents over MCP (stdio). Tenant, user and agent are fixed here, never by the model.

    Example: graphmem mcp --tenant acme --user lin --agent claude
    """
    from ...core.extras import require
    require("mcp", "mcp.server.mcpserver")  # a missing SDK is one line naming the extra, before any connection
    from ..mcp_server import main as serve
    serve(tenant, opts.settings(), user=user, agent=agent, trust_agent_writes=trust_agent_writes,
          allow_erase=allow_erase)


@cmds("demo", as_json=False)
def demo(store: GraphMem, opts: Opts, tenant: str = typer.Option("demo", "--tenant", "-t",
                                                            help="the tenant to load it into (emptied first)")) -> None:
    """Load the address/port story into tenant 'demo' and print its as-of answers.

    Example: graphmem demo
    """
    from ...local import server as local_server
    from ...local.demo import run_demo
    for line in run_demo(store):
        typer.echo(line)
    typer.echo(f"Browser: {local_server.status().browser_url}  (try the queries in cypher/, tenant '{tenant}')")


@cmds("eval", tenant=False, store=False, catch=(OSError, ValueError))
def eval_(opts: Opts, files: Optional[List[Path]] = typer.Argument(None, help="scenario files (docs/format.md)"),
          examples: bool = typer.Option(False, "--examples", help="also run the example files shipped with graphmem"),
          keep: bool = typer.Option(False, help="keep the scenario tenants for inspection"),
          recall: bool = typer.Option(False, "--recall", help="also ask every as_of query through context()")) -> None:
    """Run scenario files; one line per failure, then 'N passed, M failed' and the two accuracies
    (with --recall, a third: does context() show what as_of answers?).

    Example: graphmem eval --examples --recall   (or: graphmem eval my-scenarios.json)
    """
    from ... import examples as shipped
    from ...bench.evaluation import run_files
    paths = list(files or []) + (shipped.files() if examples else [])
    if not paths:
        typer.echo("Error: give scenario files, or --examples for the ones shipped with graphmem", err=True)
        raise typer.Exit(2)
    with open_store(opts, tenant="default") as store:
        report = run_files(store, [str(f) for f in paths], keep=keep, recall=recall)
    for f in report.failures:
        typer.echo(f.line())
    for line in report.summary_lines():
        typer.echo(line)
    if opts.as_json:
        typer.echo(json.dumps(report.to_json(), ensure_ascii=False, default=str))
    raise typer.Exit(1 if report.failed else 0)
