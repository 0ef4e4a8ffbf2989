"""``graphmem server start | stop | status``: a real Neo4j on machines without a Docker engine.

Maven fetches Neo4j Community 5.26 LTS, its HTTP server module, Neo4j Browser and APOC core from
Maven Central into the local Maven cache (``docker/neo4j-local/pom.xml``); a small launcher
(``graphmem.server.LocalNeo4j``) runs them in a child JVM through Neo4j's embedding API
(``DatabaseManagementServiceBuilder``) with Bolt and HTTP on 127.0.0.1. Nothing third-party is
vendored: the first start downloads, later starts reuse the cache.

Where things live (``GRAPHMEM_HOME``, default ``~/.local/share/graphmem``)::

    build/            the compiled launcher, classpath.txt, plugins/ (APOC)
    neo4j/            the DBMS home: data/ survives stop and start
    neo4j/logs/       graphmem-server.log (the JVM's output) and Neo4j's own logs
    server.json       pid, ports, auth and home of the running server

    neo4j-password    the generated password of the ``neo4j`` user (mode 0600)

Auth is on by default: the first start generates a strong password and stores it in
``GRAPHMEM_HOME/neo4j-password``, readable by its owner only; the client, the CLI, the tests and
the MCP server find it there (:func:`graphmem.store.settings.local_password`). ``NEO4J_PASSWORD``, when
set at start, is used instead. The password goes to the JVM through its environment, never its
command line. ``--no-auth`` starts without auth (anyone who can reach the port may read and
write every tenant).

One server per port, whichever home started it: ``start`` also records the server in a per-user
registry keyed by its Bolt port (``$XDG_RUNTIME_DIR/graphmem/servers/<port>.json``, else
``$TMPDIR/graphmem-<uid>/servers``), and ``status``/``stop`` look for the server on the
configured Bolt port there, then among the running launchers' command lines (``/proc``), when
``GRAPHMEM_HOME`` has none: ``make demo`` (home ``./.graphmem``) followed by a plain
``graphmem server stop`` stops that server. Something else answering on the port is reported as
such (:attr:`ServerInfo.other`), never as a stopped server, and never stopped.

Files are private to their owner: the home and everything in it is made 0700 (folders) / 0600
(files) on every start — folders an older graphmem created 0755 included — and the JVM runs under
umask 077, so the store and log files Neo4j creates later are 0600 too. Anyone else who can enter
the parent folder cannot read the data, the logs or ``server.json``.

Neo4j's transaction logs keep the text of past writes — erased text included — until they are
pruned: ``--tx-log-retention`` / ``GRAPHMEM_NEO4J_TX_LOG_RETENTION`` sets
``db.tx_log.rotation.retention_policy`` (default ``1G size``; ``false`` keeps only what recovery
needs) through the one line graphmem manages in ``neo4j/conf/neo4j.conf`` (docs/governance.md).

This module starts, reports and stops the JVM; the Maven step lives in graphmem.local.jars and
the lookup of running servers (server.json, the registry, /proc) in graphmem.local.registry.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import time
from typing import Any
from dataclasses import asdict, dataclass
from pathlib import Path

from ..core.config import env_config
from ..core.errors import ServerError
from ..store.settings import LOCAL_BOLT_PORT, LOCAL_HTTP_PORT, PASSWORD_FILE, graphmem_home
from .jars import JDK_HINT, build, which
from .registry import LAUNCHER, alive, launchers, locate, read_state, register, state_file, unregister

__all__ = ["ServerInfo", "alive", "build", "home", "locate", "start", "status", "stop"]

HOST = "127.0.0.1"


def home() -> Path:
    """graphmem's data folder for the local server (``GRAPHMEM_HOME``)."""
    return graphmem_home()


RETENTION_KEY = "db.tx_log.rotation.retention_policy"
_RETENTION = re.compile(r"^(true|false|keep_all|keep_none|\d+[kmgKMG]? ?(files|size|txs|entries|hours|days))$")
_MANAGED = "# managed by graphmem server start (--tx-log-retention / GRAPHMEM_NEO4J_TX_LOG_RETENTION)"


def make_private(root: Path) -> None:
    """Take group and other permissions off ``root`` and everything under it (folders 0700, files
    keep their owner bits only). Why: Neo4j creates its store and logs 0644 in 0755 folders, so
    anyone who could enter the home read every tenant's data."""
    if not root.exists():
        return
    for folder, dirs, files in os.walk(root):
        os.chmod(folder, 0o700)
        for name in files:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                mode = os.stat(path).st_mode & 0o777
                if mode & 0o077:
                    os.chmod(path, mode & 0o700)


def set_tx_log_retention(neo_home: Path, policy: str | None) -> None:
    """Write (or, with ``None``, leave) graphmem's one line in ``neo_home/conf/neo4j.conf``; the
    launcher loads that file after its own defaults. Other lines of the file are kept as they are."""
    if policy is None:
        return
    if not _RETENTION.match(policy):
        raise ServerError(f"tx log retention {policy!r} is not a Neo4j retention policy: use true, false, "
                          "or a number and unit such as '100M size', '2 files', '1 days'")
    conf = neo_home / "conf" / "neo4j.conf"
    conf.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    lines = conf.read_text().splitlines() if conf.is_file() else []
    kept = [ln for ln in lines if ln != _MANAGED and not ln.strip().startswith(RETENTION_KEY)]
    text = "\n".join([*kept, _MANAGED, f"{RETENTION_KEY}={policy}"]) + "\n"
    fd = os.open(conf, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)


def password_file() -> Path:
    return home() / PASSWORD_FILE


def ensure_password() -> str:
    """The local server's password: generated (strong, random) on first start and stored readable
    by its owner only (0600); the same on every later start."""
    path = password_file()
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    secret = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(secret + "\n")
    return secret


@dataclass
class ServerInfo:
    running: bool
    pid: int | None
    bolt_uri: str
    browser_url: str
    data_dir: str
    log_file: str
    auth: bool
    home: str = ""
    other: str | None = None  # something that is not a graphmem server answers on the Bolt port

    def describe(self) -> str:
        if self.running:
            state = f"running (pid {self.pid})"
        elif self.other:
            state = f"not running; {self.other}"
        else:
            state = "stopped"
        return (f"graphmem local Neo4j: {state}\n  Bolt:    {self.bolt_uri}\n  Browser: {self.browser_url}\n"
                f"  home:    {self.home}\n  data:    {self.data_dir}\n  log:     {self.log_file}\n"
                f"  auth:    {'on' if self.auth else 'off'}")


def _port_open(port: int, host: str = HOST) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


def _who_listens(port: int) -> str:
    """Best effort: the process listening on a port (needs `ss`)."""
    try:
        out = subprocess.run(["ss", "-ltnpH", f"sport = :{port}"], capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return "another program"
    if '"' in out:
        return "'" + out.split('"')[1] + "'"
    return "another program"


def _info(state: dict[str, Any] | None, bolt_port: int = LOCAL_BOLT_PORT, http_port: int = LOCAL_HTTP_PORT,
          where: Path | None = None) -> ServerInfo:
    if state:
        bolt_port, http_port = state["bolt_port"], state["http_port"]
    where = where or home()
    data = where / "neo4j"
    return ServerInfo(running=state is not None and alive(state.get("pid")), pid=(state or {}).get("pid"),
                      bolt_uri=f"bolt://{HOST}:{bolt_port}", browser_url=f"http://{HOST}:{http_port}/browser/",
                      data_dir=str(data / "data"), log_file=str(data / "logs" / "graphmem-server.log"),
                      auth=bool((state or {}).get("auth")), home=str(where))


def _not_ours(port: int) -> str | None:
    """What answers on ``port`` when no graphmem server does, or None when nothing does."""
    if not _port_open(port):
        return None
    return f"port {port} is answered by {_who_listens(port)}, which is not a graphmem server"


def status(bolt_port: int | None = None) -> ServerInfo:
    """The graphmem server of ``GRAPHMEM_HOME``, else the one on ``bolt_port`` from any home; when
    none runs, whether something else answers on the port (:attr:`ServerInfo.other`)."""
    found = locate(bolt_port)
    if found:
        return _info(found[1], where=found[0])
    state = read_state() if bolt_port is None else None
    port = state["bolt_port"] if state and state.get("bolt_port") else bolt_port or LOCAL_BOLT_PORT
    info = _info(None, port, state["http_port"] if state and state.get("http_port") else LOCAL_HTTP_PORT)
    info.other = _not_ours(port)
    return info


def _wait_for_bolt(proc: subprocess.Popen[bytes], port: int, log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ServerError(f"the local Neo4j exited during start (code {proc.returncode}); "
                              f"last lines of {log}:\n{_tail(log)}")
        if _port_open(port) and "ready" in _tail(log, 5):
            return
        time.sleep(0.5)
    raise ServerError(f"the local Neo4j did not answer on Bolt within {timeout:.0f}s; see {log}")


def _tail(path: Path, n: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return ""


def start(*, bolt_port: int = LOCAL_BOLT_PORT, http_port: int = LOCAL_HTTP_PORT, password: str | None = None,
          timeout: float = 240.0, auth: bool = True, tx_log_retention: str | None = None) -> ServerInfo:
    """Start the local Neo4j (idempotent); returns once Bolt answers.

    Auth is on unless ``auth=False``: the password is ``password``, else ``NEO4J_PASSWORD``, else
    the one generated on first start under ``GRAPHMEM_HOME`` (:func:`ensure_password`).
    ``tx_log_retention`` (else ``GRAPHMEM_NEO4J_TX_LOG_RETENTION``) sets how much transaction log
    Neo4j keeps (:func:`set_tx_log_retention`). The home is made private first (:func:`make_private`).
    """
    state = read_state()
    if state and alive(state.get("pid")):
        return _info(state)
    config = env_config()
    if auth:
        secret = config.neo4j_password.get_secret_value() if config.neo4j_password else None
        password = password or secret or ensure_password()
    else:
        password = None
    for port in (bolt_port, http_port):
        if _port_open(port):
            raise ServerError(f"port {port} is already taken by {_taker(port)}; stop it, or choose "
                              f"other ports with --bolt-port/--http-port")
    neo_home = home() / "neo4j"
    set_tx_log_retention(neo_home, tx_log_retention or config.neo4j_tx_log_retention)
    java = which("java", JDK_HINT)
    out = build()
    from . import browser_guide  # here, not at the top: `graphmem server status` needs none of the queries
    (neo_home / "logs").mkdir(parents=True, exist_ok=True, mode=0o700)
    make_private(home())
    log = neo_home / "logs" / "graphmem-server.log"
    classpath = f"{out / 'classes'}:{(out / 'classpath.txt').read_text().strip()}"
    heap = config.neo4j_heap
    cmd = [java, "-Xms512m", f"-Xmx{heap}", "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError",
           "-cp", classpath, LAUNCHER, "--home", str(neo_home), "--host", HOST,
           "--bolt-port", str(bolt_port), "--http-port", str(http_port),
           "--pagecache", config.neo4j_pagecache,
           "--plugins", str(out / "plugins"),
           "--guides", str(browser_guide.write(home() / "guides").parent),
           "--guide-port", str(browser_guide.guide_port(http_port))]
    env = {k: v for k, v in os.environ.items() if k != "GRAPHMEM_NEO4J_PASSWORD"}
    if password:
        env["GRAPHMEM_NEO4J_PASSWORD"] = password
    with os.fdopen(os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), "ab") as sink:
        sink.write(f"\n--- start {time.strftime('%Y-%m-%dT%H:%M:%S')} ---\n".encode())
        sink.flush()
        proc = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=env, start_new_session=True, umask=0o077)
    state = {"pid": proc.pid, "bolt_port": bolt_port, "http_port": http_port, "auth": bool(password),
             "home": str(home())}
    _write_private(state_file(), json.dumps(state))
    register(state)
    try:
        _wait_for_bolt(proc, bolt_port, log, timeout)
    except ServerError:
        if proc.poll() is None:
            proc.kill()
        state_file().unlink(missing_ok=True)
        unregister(bolt_port, proc.pid)
        raise
    return _info(state)


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)


def _taker(port: int) -> str:
    """Who holds ``port``: a graphmem server (and its home) when one does, else :func:`_who_listens`."""
    for pid, args in launchers():
        if port in (_int(args.get("--bolt-port")), _int(args.get("--http-port"))):
            return f"the graphmem server of {Path(args.get('--home', '')).parent} (pid {pid})"
    return _who_listens(port)


def _int(value: str | None) -> int | None:
    try:
        return int(value or "")
    except ValueError:
        return None


def stop(timeout: float = 60.0, *, bolt_port: int | None = None) -> ServerInfo:
    """Stop the local Neo4j cleanly (SIGTERM, then SIGKILL after ``timeout``): the one of
    ``GRAPHMEM_HOME``, else the graphmem server on ``bolt_port`` whichever home started it.
    Something else on the port is not stopped: a :class:`~graphmem.core.errors.ServerError` says what it is."""
    found = locate(bolt_port)
    if not found:
        own = read_state()
        if own is not None and not alive(own.get("pid")):
            state_file().unlink(missing_ok=True)  # a stale record of a server that is gone
        port = own["bolt_port"] if bolt_port is None and own and own.get("bolt_port") else bolt_port or LOCAL_BOLT_PORT
        other = _not_ours(port)
        if other:
            raise ServerError(f"no graphmem server to stop: {other}; not stopping it")
        return _info(None, port)
    where, state = found
    pid = state["pid"]
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.3)
    if alive(pid):
        os.kill(pid, signal.SIGKILL)
    if (read_state(where) or {}).get("pid") == pid:
        state_file(where).unlink(missing_ok=True)
    unregister(state["bolt_port"], pid)
    return _info(None, state["bolt_port"], state["http_port"], where=where)


def info_json(info: ServerInfo) -> str:
    return json.dumps(asdict(info))
