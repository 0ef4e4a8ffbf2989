"""A private local server (its own GRAPHMEM_HOME and ports; never the shared one on 7687) to test
what needs a server of one's own: its files are owner-only, its transaction-log retention is
settable, and ``graphmem import`` stops at once when the server dies under it — a non-zero exit,
"re-run to resume", no outage counted as a reject — and a re-run completes the import exactly once."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import neo4j
import pytest

from test_server_home import _env, _free_port, _reuse_build

EXE = str(Path(sys.executable).parent / "graphmem")
N = 12_000  # events in the file: enough batches of 100 that the kill lands mid-import


def _cli(env: dict, *args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=env, timeout=timeout)


def _loose(root: Path) -> list[str]:
    """Paths under ``root`` that group or others may read, write or enter."""
    out = []
    for folder, _dirs, files in os.walk(root):
        for p in [folder, *(os.path.join(folder, f) for f in files)]:
            if not os.path.islink(p) and os.stat(p).st_mode & 0o077:
                out.append(f"{p} {stat.filemode(os.stat(p).st_mode)}")
    return out


def _ledger_size(uri: str, password: str, tenant: str) -> int:
    with neo4j.GraphDatabase.driver(uri, auth=("neo4j", password)) as d:
        return d.execute_query("MATCH (v:Event {tenant: $t}) RETURN count(v) AS n", t=tenant).records[0]["n"]


@pytest.mark.slow
def test_private_files_retention_and_import_outage(tmp_path):
    env = _env(tmp_path, "home")
    home = tmp_path / "home"
    _reuse_build(home)
    # an older install: folders 0755, a store file 0644
    old = home / "neo4j" / "data" / "old-store-file"
    old.parent.mkdir(parents=True)
    old.write_text("x")
    for p in (home, home / "neo4j", home / "neo4j" / "data"):
        p.chmod(0o755)
    old.chmod(0o644)
    bolt, http = _free_port(), _free_port()
    start = ("server", "start", "--bolt-port", str(bolt), "--http-port", str(http), "--json")
    started = _cli(env, *start, "--tx-log-retention", "false")
    assert started.returncode == 0, started.stderr
    pid = json.loads(started.stdout)["pid"]
    uri = f"bolt://127.0.0.1:{bolt}"
    client = dict(env, NEO4J_URI=uri)
    try:
        conf = (home / "neo4j" / "conf" / "neo4j.conf").read_text()
        assert "db.tx_log.rotation.retention_policy=false" in conf
        password = (home / "neo4j-password").read_text().strip()

        events = tmp_path / "events.jsonl"
        events.write_text("".join(json.dumps({"op": "set", "subject": f"s{i % 500}", "topic": "t", "value": str(i)})
                                  + "\n" for i in range(N)))
        imp = subprocess.Popen([EXE, "import", str(events), "-t", "imp", "--batch", "100", "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=client)
        deadline = time.monotonic() + 300
        while _ledger_size(uri, password, "imp") < 500 and time.monotonic() < deadline:
            assert imp.poll() is None, imp.communicate()
            time.sleep(0.3)
        # files Neo4j wrote since the start (store, logs, transaction logs) are owner-only too
        assert not _loose(home), _loose(home)[:5]
        assert stat.S_IMODE(old.stat().st_mode) == 0o600

        os.kill(pid, signal.SIGKILL)  # the server dies under the import
        t0 = time.monotonic()
        out, err = imp.communicate(timeout=180)
        stopped_after = time.monotonic() - t0
        assert imp.returncode == 1, (out, err)
        report = json.loads(out.strip().splitlines()[-1])
        assert report["rejected"] == 0 and report["interrupted"], report  # an outage is not a reject
        last = err.strip().splitlines()[-1]  # above it, at most the driver's own log lines about the lost connection
        assert last.startswith("Error: import stopped at events.jsonl:") and "re-run the same command to resume" in last
        assert "Traceback" not in err, err
        assert stopped_after < 90, stopped_after  # once, not a 30-second retry per event

        deadline = time.monotonic() + 30
        while subprocess.run(["kill", "-0", str(pid)], capture_output=True).returncode == 0 and time.monotonic() < deadline:
            time.sleep(0.3)
        again = _cli(env, *start)
        assert again.returncode == 0, again.stderr
        pid = json.loads(again.stdout)["pid"]
        landed = _ledger_size(uri, password, "imp")
        assert 0 < landed < N
        rerun = _cli(client, "import", str(events), "-t", "imp", "--batch", "1000", "--json")
        assert rerun.returncode == 0, rerun.stderr
        assert json.loads(rerun.stdout)["events"] == N - landed  # what had landed is skipped
        assert _ledger_size(uri, password, "imp") == N
        assert not _loose(home), _loose(home)[:5]
    finally:
        _cli(env, "server", "stop", "--bolt-port", str(bolt), timeout=120)
