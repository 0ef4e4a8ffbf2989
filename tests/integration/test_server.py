"""The local server: stop/start keeps the data; auth works and credentials never leak.

These run only against the local server (graphmem server); with NEO4J_URI or a container they
have nothing to check and say so.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem import GraphMem
from graphmem.core.errors import ConnectionError_
from graphmem.store.settings import Settings

EXE = str(Path(sys.executable).parent / "graphmem")


def _cli(*args: str, env: dict | None = None, timeout: int = 400) -> subprocess.CompletedProcess:
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=env or dict(os.environ), timeout=timeout)


def _local_only(neo4j_target):
    if neo4j_target.how != "local":
        pytest.skip(f"Neo4j comes from {neo4j_target.how}; the local server is not in use")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_stop_start_keeps_data(neo4j_target, store):
    _local_only(neo4j_target)
    store.set("lin", "home_address", "Hewan Rd")
    assert _cli("server", "stop").returncode == 0
    status = json.loads(_cli("server", "status", "--json").stdout)
    assert status["running"] is False
    started = _cli("server", "start")
    assert started.returncode == 0, started.stderr
    assert "bolt://127.0.0.1:7687" in started.stdout and "/browser/" in started.stdout
    again = _cli("server", "start")  # idempotent
    assert again.returncode == 0
    with GraphMem(neo4j_target.settings, tenant=store.tenant, install_schema=False) as fresh:
        assert fresh.as_of("lin", "home_address").value == "Hewan Rd"


def test_port_taken_is_one_clear_line(neo4j_target, tmp_path):
    _local_only(neo4j_target)
    env = dict(os.environ, GRAPHMEM_HOME=str(tmp_path / "other"))
    proc = _cli("server", "start", "--bolt-port", "7687", "--http-port", str(_free_port()), env=env)
    assert proc.returncode == 1
    assert proc.stderr.startswith("Error: port 7687 is already taken") and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_auth_on_works_and_password_never_leaks(neo4j_target, tmp_path):
    _local_only(neo4j_target)
    secret = "graphmem-Secret-42"
    bolt, http = _free_port(), _free_port()
    env = dict(os.environ, GRAPHMEM_HOME=str(tmp_path / "auth"), NEO4J_PASSWORD=secret)
    proc = _cli("server", "start", "--bolt-port", str(bolt), "--http-port", str(http), env=env)
    try:
        assert proc.returncode == 0, proc.stderr
        uri = f"bolt://127.0.0.1:{bolt}"
        with GraphMem(Settings(uri=uri, password=secret), tenant="auth") as mem:
            mem.set("a", "b", "c")
            assert mem.as_of("a", "b").value == "c"
        with pytest.raises(ConnectionError_) as err:
            GraphMem(Settings(uri=uri, password="wrong-password"), tenant="auth")
        assert "wrong-password" not in str(err.value) and secret not in str(err.value)
        bad = _cli("as-of", "a", "b", "--json", env=dict(env, NEO4J_URI=uri, NEO4J_PASSWORD="nope-nope"))
        assert bad.returncode == 1 and "nope-nope" not in bad.stdout + bad.stderr
        ok = _cli("as-of", "a", "b", "-t", "auth", "--json", env=dict(env, NEO4J_URI=uri))
        assert ok.returncode == 0 and json.loads(ok.stdout)["value"] == "c" and secret not in ok.stdout
        log = (tmp_path / "auth" / "neo4j" / "logs" / "graphmem-server.log").read_text()
        assert secret not in log and secret not in proc.stdout + proc.stderr
    finally:
        _cli("server", "stop", env=env)


def test_transaction_logs_are_kept_to_about_a_gigabyte(neo4j_target, driver):
    """Not Neo4j's two days' worth: a day of bulk loads and test runs once filled a disk."""
    _local_only(neo4j_target)
    rows, _, _ = driver.execute_query("SHOW SETTINGS YIELD name, value WHERE name = $name RETURN value",
                                      name="db.tx_log.rotation.retention_policy")
    assert [r["value"] for r in rows] == ["1G size"]
