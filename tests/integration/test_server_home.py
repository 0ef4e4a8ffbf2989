"""One local server per port, whichever GRAPHMEM_HOME started it: ``server status``/``stop`` from
another home find it (the per-user registry, else the launcher's command line in /proc), and
something else on the port is named, never reported as a stopped server and never stopped.

These start their own server on free ports under two temporary homes (never the one on 7687).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem.local import server
from graphmem.store.settings import LOCAL_BOLT_PORT

EXE = str(Path(sys.executable).parent / "graphmem")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cli(env: dict, *args: str, timeout: int = 960) -> subprocess.CompletedProcess:
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=env, timeout=timeout)


def _env(tmp: Path, home: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NEO4J_PASSWORD", "NEO4J_URI", "NEO4J_USER")}
    env.update(GRAPHMEM_HOME=str(tmp / home), XDG_RUNTIME_DIR=str(tmp / "run"),
               GRAPHMEM_NEO4J_HEAP="512m", GRAPHMEM_NEO4J_PAGECACHE="32m")
    return env


def _reuse_build(home: Path) -> None:
    """Copy a compiled launcher (same sources: same stamp) so the test needs no Maven run."""
    found = server.locate(LOCAL_BOLT_PORT)
    for built in (server.home() / "build", *([found[0] / "build"] if found else [])):
        if (built / "stamp").is_file():
            shutil.copytree(built, home / "build", symlinks=True)
            return


@pytest.mark.slow
def test_status_and_stop_find_the_server_from_another_home(tmp_path):
    a, b = _env(tmp_path, "a"), _env(tmp_path, "b")
    _reuse_build(tmp_path / "a")
    bolt, http = _free_port(), _free_port()
    started = _cli(a, "server", "start", "--bolt-port", str(bolt), "--http-port", str(http), "--json")
    assert started.returncode == 0, started.stderr
    pid = json.loads(started.stdout)["pid"]
    try:
        seen = json.loads(_cli(b, "server", "status", "--bolt-port", str(bolt), "--json").stdout)
        assert seen["running"] is True and seen["pid"] == pid and seen["home"] == str(tmp_path / "a")
        own = json.loads(_cli(a, "server", "status", "--json").stdout)  # no --bolt-port: the home's own
        assert own["running"] is True and own["pid"] == pid
        other_port = _free_port()  # a port given is the port looked at, even from home a
        elsewhere = json.loads(_cli(a, "server", "status", "--bolt-port", str(other_port), "--json").stdout)
        assert elsewhere["running"] is False and elsewhere["bolt_uri"].endswith(f":{other_port}")
        # the client in home b finds home a's generated password through the registry
        ping = _cli(dict(b, NEO4J_URI=f"bolt://127.0.0.1:{bolt}"), "ping", "--json", timeout=120)
        assert ping.returncode == 0, ping.stderr
        # starting from home b on the same port names the server that holds it
        again = _cli(b, "server", "start", "--bolt-port", str(bolt), "--http-port", str(_free_port()))
        assert again.returncode == 1
        assert f"already taken by the graphmem server of {tmp_path / 'a'} (pid {pid})" in again.stderr
        # without the registry, the launcher's command line still says whose server it is
        (tmp_path / "run" / "graphmem" / "servers" / f"{bolt}.json").unlink()
        seen = json.loads(_cli(b, "server", "status", "--bolt-port", str(bolt), "--json").stdout)
        assert seen["running"] is True and seen["pid"] == pid and seen["home"] == str(tmp_path / "a")
        stopped = _cli(b, "server", "stop", "--bolt-port", str(bolt), timeout=120)
        assert stopped.returncode == 0, stopped.stderr
        assert stopped.stdout.strip() == f"Neo4j is stopped; data kept in {tmp_path / 'a' / 'neo4j' / 'data'}"
        assert not server.alive(pid)
        assert not (tmp_path / "a" / "server.json").exists()
        after = json.loads(_cli(a, "server", "status", "--bolt-port", str(bolt), "--json").stdout)
        assert after["running"] is False and after["other"] is None
    finally:
        if server.alive(pid):
            os.kill(pid, 9)


def test_something_else_on_the_port_is_named_and_left_alone(tmp_path):
    env = _env(tmp_path, "b")
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        status = _cli(env, "server", "status", "--bolt-port", str(port), "--json", timeout=60)
        seen = json.loads(status.stdout)
        assert seen["running"] is False and "which is not a graphmem server" in seen["other"]
        text = _cli(env, "server", "status", "--bolt-port", str(port), timeout=60).stdout
        assert text.startswith(f"graphmem local Neo4j: not running; port {port} is answered by ")
        stop = _cli(env, "server", "stop", "--bolt-port", str(port), timeout=60)
        assert stop.returncode == 1
        assert stop.stderr.startswith(f"Error: no graphmem server to stop: port {port} is answered by ")
        assert stop.stderr.rstrip().endswith("which is not a graphmem server; not stopping it")
        listener.settimeout(2)  # still listening: nothing stopped it
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            pass


def test_nothing_on_the_port_is_stopped(tmp_path):
    env = _env(tmp_path, "b")
    port = _free_port()
    seen = json.loads(_cli(env, "server", "status", "--bolt-port", str(port), "--json", timeout=60).stdout)
    assert seen["running"] is False and seen["other"] is None and seen["bolt_uri"].endswith(f":{port}")
    stop = _cli(env, "server", "stop", "--bolt-port", str(port), timeout=60)
    assert stop.returncode == 0 and stop.stdout.startswith("Neo4j is stopped")
