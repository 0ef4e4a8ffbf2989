"""Where bulk ingest's wall time goes between the client and the server: graphmem's bulk path and
the raw ``UNWIND … CREATE`` baseline (``cypher/bench/raw_create.cypher``), chunk by chunk,
interleaved on one server, each with its wall time, the server JVM's CPU time and this client's
CPU time per fact. A developer's tool beside ``graphmem bench``, not part of the package: it
reads the JVM's CPU from /proc, so it needs the local server (``graphmem server start``).

    NEO4J_URI=… .venv/bin/python bench/ingest_cpu.py ~/TILP/data 30000 5000 1000

loads N facts, CHUNK to an ``apply_bulk`` call (and to one raw transaction), BATCH events to a
graphmem transaction, into fresh tenants that it drops afterwards. docs/scaling.md quotes it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

from graphmem import GraphMem
from graphmem.bench.kg_phases import AT, raw_rows, raw_write
from graphmem.bench.kg_workload import KGData, chunks, data_files
from graphmem.store import queries
from graphmem.store.settings import Settings


def _server_pid() -> int:
    out = subprocess.run([sys.executable, "-m", "graphmem.interfaces.cli", "server", "status", "--json"],
                         capture_output=True, text=True, check=True).stdout
    status = json.loads(out)
    if not status.get("running"):
        raise SystemExit("no local graphmem server is running: graphmem server start")
    return int(status["pid"])


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def main(data: str, n: int, chunk: int, batch: int) -> None:
    pid = _server_pid()
    kg = KGData(data_files([Path(data)]))
    raw_create = queries.get("bench/raw_create").text
    totals = dict.fromkeys(("graphmem wall", "graphmem server CPU", "graphmem client CPU",
                            "raw wall", "raw server CPU", "raw client CPU"), 0.0)
    with GraphMem(Settings.from_env(), tenant=f"ingest-cpu-{uuid.uuid4().hex[:6]}") as mem:
        raw = mem.for_tenant(f"{mem.tenant}-raw")
        mem.apply_bulk([{"op": "topic", "name": r, "cardinality": "many"} for r in kg.relations])
        seq = 0
        for replica, part in chunks(kg.facts, n, chunk):
            events = [dict(f.event(), recorded_at=AT.isoformat()) for f in part]
            rows = raw_rows(part, events, replica, seq)
            seq += len(rows)
            for name, write in (("graphmem", lambda: mem.apply_bulk(events, batch_size=batch)),
                                ("raw", lambda: raw_write(mem, raw_create, rows, raw.tenant))):
                wall, server, client = time.perf_counter(), _cpu_seconds(pid), time.process_time()
                write()
                totals[f"{name} wall"] += time.perf_counter() - wall
                totals[f"{name} server CPU"] += _cpu_seconds(pid) - server
                totals[f"{name} client CPU"] += time.process_time() - client
        mem.drop_tenant()
        raw.drop_tenant()
    print(f"{n:,} facts, {chunk:,} to a call, graphmem batches of {batch:,}; ms a fact:")
    for key, seconds in totals.items():
        print(f"  {key:<22} {seconds / n * 1000:6.3f}")
    print(f"ingest ÷ raw (facts/s): {totals['raw wall'] / totals['graphmem wall']:.3f}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
