"""Where the running local servers are: a home's ``server.json`` (pid, ports, auth, home), the
per-user registry keyed by Bolt port (``$XDG_RUNTIME_DIR/graphmem/servers/<port>.json``, else
``$TMPDIR/graphmem-<uid>/servers``), and, when both are silent, the running launchers' command
lines in ``/proc``. Apart from graphmem.local.server (which starts and stops the JVM) because this
only looks: :func:`locate` answers "which graphmem server is on this port, from which home",
whichever home started it, and never touches a process."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..store.settings import LOCAL_BOLT_PORT, graphmem_home, registry_dir

__all__ = ["LAUNCHER", "alive", "launchers", "locate", "read_state", "register", "state_file", "unregister"]

LAUNCHER = "graphmem.server.LocalNeo4j"


def state_file(where: Path | None = None) -> Path:
    """The ``server.json`` of a home (default: ``GRAPHMEM_HOME``)."""
    return (where or graphmem_home()) / "server.json"


def read_state(where: Path | None = None) -> dict[str, Any] | None:
    """A home's recorded server (pid, ports, auth, home), or None when it has none or it is unreadable."""
    try:
        state = json.loads(state_file(where).read_text())
        return state if isinstance(state, dict) else None
    except (OSError, ValueError):
        return None


def register(state: dict[str, Any]) -> None:
    """Record a started server under its Bolt port in the per-user registry (best effort)."""
    folder = registry_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(folder / f"{state['bolt_port']}.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(state))
    except OSError:  # best effort: /proc still finds the server
        pass


def unregister(port: int, pid: int | None) -> None:
    """Forget the registry entry of ``port`` if it is the server ``pid``'s."""
    entry = registry_dir() / f"{port}.json"
    try:
        if json.loads(entry.read_text()).get("pid") == pid:
            entry.unlink()
    except (OSError, ValueError, AttributeError):
        pass


def alive(pid: int | None) -> bool:
    """Is ``pid`` a running process (a zombie is not)?"""
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie (exited child not yet reaped) is not alive
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[-1][:1] != "Z"
    except OSError:
        return True


def _launcher_args(pid: int) -> dict[str, str] | None:
    """The options of the graphmem launcher running as ``pid`` (from /proc), or None if it is not one."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = f.read().decode(errors="replace").split("\0")
    except OSError:
        return None
    if LAUNCHER not in args:
        return None
    rest = args[args.index(LAUNCHER) + 1:]
    return {k: v for k, v in zip(rest, rest[1:]) if k.startswith("--")}


def launchers() -> list[tuple[int, dict[str, str]]]:
    """Every graphmem launcher running on this machine: (pid, its options)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        args = _launcher_args(int(entry.name))
        if args is not None:
            found.append((int(entry.name), args))
    return found


def _state_of(pid: int, args: dict[str, str]) -> tuple[Path, dict[str, Any]]:
    """The home and state of a running launcher: its home's server.json when it names this pid."""
    where = Path(args.get("--home", "")).parent
    state = read_state(where)
    if not state or state.get("pid") != pid:
        state = {"pid": pid, "bolt_port": int(args.get("--bolt-port", 0)), "http_port": int(args.get("--http-port", 0)),
                 "auth": None, "home": str(where)}
    return where, state


def locate(bolt_port: int | None = None) -> tuple[Path, dict[str, Any]] | None:
    """The running graphmem server to act on: the one of ``GRAPHMEM_HOME`` if it runs (on
    ``bolt_port`` when one is given), else the one on ``bolt_port`` (default 7687) whichever home
    started it (the registry, then /proc); None when there is none."""
    state = read_state()
    if state and alive(state.get("pid")) and bolt_port in (None, state.get("bolt_port")):
        return graphmem_home(), state
    bolt_port = bolt_port or (state or {}).get("bolt_port") or LOCAL_BOLT_PORT
    try:
        entry = json.loads((registry_dir() / f"{bolt_port}.json").read_text())
        pid = int(entry["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        pid = 0
    args = _launcher_args(pid) if pid and alive(pid) else None
    if args is not None:
        return _state_of(pid, args)
    for pid, args in launchers():
        if args.get("--bolt-port") == str(bolt_port) and alive(pid):
            return _state_of(pid, args)
    return None
