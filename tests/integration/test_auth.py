"""Auth on by default: a local server of its own (own GRAPHMEM_HOME, free ports) generates a
password on first start, stores it owner-readable only, refuses connections without it, and the
client and CLI find it without configuration. Never touches the server the other tests use."""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
from pathlib import Path

import neo4j
import pytest

from graphmem import GraphMem
from graphmem.local import server
from graphmem.store.settings import Settings

EXE = str(Path(sys.executable).parent / "graphmem")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def own_server(tmp_path_factory):
    home = tmp_path_factory.mktemp("graphmem-home")
    built = server.home() / "build"
    if (built / "stamp").is_file():  # reuse the compiled launcher (same sources: same stamp)
        shutil.copytree(built, home / "build", symlinks=True)
    env = {k: v for k, v in os.environ.items() if k not in ("NEO4J_PASSWORD", "NEO4J_URI", "NEO4J_USER")}
    env.update(GRAPHMEM_HOME=str(home), GRAPHMEM_NEO4J_HEAP="768m", GRAPHMEM_NEO4J_PAGECACHE="64m")
    bolt, http = _free_port(), _free_port()
    r = subprocess.run([EXE, "server", "start", "--bolt-port", str(bolt), "--http-port", str(http), "--json",
                        "--timeout", "900"], capture_output=True, text=True, env=env, timeout=960)
    assert r.returncode == 0, r.stderr
    try:
        yield home, env, json.loads(r.stdout)
    finally:
        subprocess.run([EXE, "server", "stop"], capture_output=True, text=True, env=env, timeout=120)


def test_first_start_generates_an_owner_only_password(own_server):
    home, _env, info = own_server
    secret = home / "neo4j-password"
    assert info["auth"] is True
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert len(secret.read_text().strip()) >= 32


def test_a_connection_without_the_password_is_refused(own_server):
    home, _env, info = own_server
    for auth in (None, ("neo4j", "wrong-password")):
        with neo4j.GraphDatabase.driver(info["bolt_uri"], auth=auth) as d:
            with pytest.raises((neo4j.exceptions.AuthError, neo4j.exceptions.ClientError)):
                d.execute_query("MATCH (n) RETURN count(n)")


def test_client_cli_and_mcp_find_the_password(own_server):
    home, env, info = own_server
    uri = info["bolt_uri"]
    settings = Settings.from_env({**env, "NEO4J_URI": uri})
    assert settings.password is not None
    assert Settings.from_env({**env, "NEO4J_URI": uri, "NEO4J_PASSWORD": "override"}).password.get_secret_value() \
        == "override"  # NEO4J_PASSWORD still wins
    assert Settings.from_env({**env, "NEO4J_URI": "bolt://127.0.0.1:1"}).password is None  # not that server
    with GraphMem(settings, tenant="auth-test") as mem:
        mem.set("deploy", "port", "8000")
        assert mem.as_of("deploy", "port").value == "8000"
    r = subprocess.run([EXE, "as-of", "deploy", "port", "-t", "auth-test", "--json"], capture_output=True, text=True,
                       env={**env, "NEO4J_URI": uri}, timeout=120)
    assert r.returncode == 0 and json.loads(r.stdout)["value"] == "8000", r.stderr
    r = subprocess.run([EXE, "as-of", "deploy", "port", "-t", "auth-test"], capture_output=True, text=True,
                       env={**env, "NEO4J_URI": uri, "NEO4J_PASSWORD": "wrong"}, timeout=120)
    assert r.returncode == 1 and "refused the credentials" in r.stderr
