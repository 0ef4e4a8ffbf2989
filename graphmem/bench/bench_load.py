"""``graphmem bench --writers N --tenants M``: many writers and readers at once (a benchmark, never a test).

Each writer is a process of its own (its own driver, as separate agents would be) that applies
``events`` set events in transactions of ``batch`` events, through the public API
(``GraphMem.apply_bulk``, one transaction per batch, the tenant's ledger lock taken first).
Writers are dealt round-robin over ``M`` tenants: ``M = 1`` puts every writer on one tenant (its
ledger lock serialises them), ``M >= N`` gives each its own. ``readers`` reader processes run
``as_of`` on the same tenants for as long as the writers write and report p50/p99.

Every run is checked, not only timed: per tenant, each event id written appears exactly once in
the ledger (0 lost, 0 duplicated), the sequence is gap-free and its hash chain intact, and the
projection equals a replay of the ledger (``verify(replay=True)``).
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import platform
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from .kg_phases import percentile
from ..store.client import GraphMem
from ..store.settings import Settings

__all__ = ["run_load", "sweep_load"]

SLOTS = 50  # slots per tenant that every writer of it shares (contention on the same facts)


def _settings(conn: dict[str, Any]) -> Settings:
    return Settings(**{k: v for k, v in conn.items() if v is not None})


def _events(writer: int, n: int) -> list[dict[str, Any]]:
    return [{"op": "set", "subject": f"s{i % SLOTS}", "topic": "load", "value": f"w{writer}-{i}",
             "id": f"w{writer}-e{i}"} for i in range(n)]


def _writer(conn: dict[str, Any], tenant: str, writer: int, n: int, batch: int, go: Any, out: Any) -> None:
    try:
        with GraphMem(_settings(conn), tenant=tenant, install_schema=False) as mem:
            events = _events(writer, n)
            mem.round_trip()  # connected before the start signal
            go.wait()
            t0 = time.time()
            lat = []
            for lo in range(0, n, batch):
                b0 = time.perf_counter()
                mem.apply_bulk(events[lo:lo + batch], batch_size=batch)
                lat.append((time.perf_counter() - b0) * 1000)
            out.put(("writer", writer, t0, time.time(), lat, None))
    except BaseException as e:  # reported by the parent, never lost
        out.put(("writer", writer, 0.0, 0.0, [], f"{type(e).__name__}: {e}"))


def _reader(conn: dict[str, Any], tenants: list[str], reader: int, go: Any, stop: Any, out: Any) -> None:
    try:
        mems = [GraphMem(_settings(conn), tenant=t, install_schema=False) for t in tenants]
        lat: list[float] = []
        mems[0].round_trip()
        go.wait()
        i = reader
        while not stop.is_set():
            mem = mems[i % len(mems)]
            t0 = time.perf_counter()
            mem.as_of(f"s{i % SLOTS}", "load")
            lat.append((time.perf_counter() - t0) * 1000)
            i += 1
        for m in mems:
            m.close()
        out.put(("reader", reader, 0.0, 0.0, lat, None))
    except BaseException as e:
        out.put(("reader", reader, 0.0, 0.0, [], f"{type(e).__name__}: {e}"))


def _check(store: GraphMem, tenant: str, writers: list[int], n: int) -> dict[str, Any]:
    """0 lost, 0 duplicated, gap-free chain, projection == replay, for one tenant."""
    mem = store.for_tenant(tenant)
    seen: dict[str, int] = {}
    for e in mem.events():
        ident = json.loads(e["payload"]).get("id")
        if ident:
            seen[ident] = seen.get(ident, 0) + 1
    want = {f"w{w}-e{i}" for w in writers for i in range(n)}
    verified = mem.verify(replay=True)
    return {"events": sum(seen.values()), "expected": len(want), "lost": len(want - set(seen)),
            "duplicated": sum(c - 1 for c in seen.values() if c > 1), "unexpected": len(set(seen) - want),
            "chain_ok": verified["chain_ok"], "projection_ok": verified.get("projection_ok")}


def run_load(store: GraphMem, *, writers: int, tenants: int, events: int = 400, batch: int = 10,
             readers: int = 2, keep: bool = False, log: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """One configuration: ``writers`` writer processes over ``min(tenants, writers)`` tenants."""
    m = max(1, min(tenants, writers))
    run_id = uuid.uuid4().hex[:6]
    names = [f"load-{run_id}-t{k}" for k in range(m)]
    for t in names:  # the ledger heads exist before the clock starts
        store.for_tenant(t).declare_topic("load", "one")
    s = store.settings
    conn = {"uri": s.uri, "user": s.user, "database": s.database,
            "password": s.password.get_secret_value() if s.password else None}
    ctx = mp.get_context("spawn")
    go, stop, out = ctx.Event(), ctx.Event(), ctx.Queue()
    owners = {w: names[w % m] for w in range(writers)}
    procs = [ctx.Process(target=_writer, args=(conn, owners[w], w, events, batch, go, out)) for w in range(writers)]
    procs += [ctx.Process(target=_reader, args=(conn, names, r, go, stop, out)) for r in range(readers)]
    for p in procs:
        p.start()
    time.sleep(0.5)
    go.set()
    results = []
    for _ in range(writers):
        results.append(out.get(timeout=3600))
    stop.set()
    for _ in range(readers):
        results.append(out.get(timeout=600))
    for p in procs:
        p.join(timeout=60)
    errors = [f"{kind} {i}: {err}" for kind, i, _, _, _, err in results if err]
    wr = [r for r in results if r[0] == "writer" and not r[5]]
    start, end = min(r[2] for r in wr), max(r[3] for r in wr)
    tx = [x for r in wr for x in r[4]]
    reads = [x for r in results if r[0] == "reader" for x in r[4]]
    total = writers * events
    checks = {t: _check(store, t, [w for w in range(writers) if owners[w] == t], events) for t in names}
    result = {
        "writers": writers, "tenants": m, "readers": readers, "events_per_writer": events, "batch": batch,
        "events": total, "seconds": round(end - start, 2),
        "events_per_s": round(total / (end - start), 1),
        "tx_p50_ms": round(percentile(tx, 50), 2), "tx_p99_ms": round(percentile(tx, 99), 2),
        "reads": len(reads), "read_p50_ms": round(percentile(reads, 50), 2) if reads else None,
        "read_p99_ms": round(percentile(reads, 99), 2) if reads else None,
        "lost": sum(c["lost"] for c in checks.values()),
        "duplicated": sum(c["duplicated"] for c in checks.values()),
        "ledger_events": sum(c["events"] for c in checks.values()),
        "chain_ok": all(c["chain_ok"] for c in checks.values()),
        "projection_equals_replay": all(c["projection_ok"] for c in checks.values()),
        "errors": errors,
    }
    log(f"{writers} writer(s) on {m} tenant(s): {result['events_per_s']:,.0f} events/s "
        f"(tx p50 {result['tx_p50_ms']} ms), reads p50 {result['read_p50_ms']} / p99 {result['read_p99_ms']} ms; "
        f"lost {result['lost']}, duplicated {result['duplicated']}, replay "
        f"{'==' if result['projection_equals_replay'] else '!='} projection")
    if not keep:
        for t in names:
            store.for_tenant(t).drop_tenant(batch=5_000)
    return result


def sweep_load(store: GraphMem, writers: list[int], tenants: list[int], out_dir: Path | None = None,
               log: Callable[[str], None] = print, **kw: Any) -> dict[str, Any]:
    """Every (writers, tenants) pair; per tenant setting, the aggregate rate against 1 writer's of
    the same run. Writes ``load.json`` and ``load.png`` under ``out_dir`` when given."""
    runs = []
    for m in tenants:
        for n in writers:
            runs.append({"tenants_asked": m, **run_load(store, writers=n, tenants=m, log=log, **kw)})
    for r in runs:
        one = next((x for x in runs if x["writers"] == 1 and (x["tenants"] == 1)), None)
        r["rate_vs_one_writer"] = round(r["events_per_s"] / one["events_per_s"], 2) if one else None
    data = {"runs": runs, "load_note": "2 shared cores; other engineers' servers ran on the same machine",
            "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
                        "server": store.ping(), "uri": store.settings.uri.split("@")[-1]},
            "when": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "load.json").write_text(json.dumps(data, indent=2))
        _plot(runs, out_dir / "load.png")
    return data


def _plot(runs: list[dict[str, Any]], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return  # the JSON is the result; the plot needs graphmem[bench]
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    for asked in sorted({r["tenants_asked"] for r in runs}):
        xs = [r for r in runs if r["tenants_asked"] == asked]
        label = "one tenant (ledger lock)" if asked == 1 else f"writers over up to {asked} tenants"
        a.plot([r["writers"] for r in xs], [r["events_per_s"] for r in xs], "o-", label=label)
        b.plot([r["writers"] for r in xs], [r["read_p99_ms"] for r in xs], "o-", label=f"read p99, {label}")
        b.plot([r["writers"] for r in xs], [r["read_p50_ms"] for r in xs], "s--", label=f"read p50, {label}")
    a.set(xscale="log", xlabel="writers", ylabel="events/s (aggregate)", title="write rate")
    a.set_xticks([1, 2, 4, 8], labels=["1", "2", "4", "8"])
    a.minorticks_off()
    a.legend()
    b.set(xscale="log", xlabel="writers", ylabel="ms", title="as_of while writing")
    b.set_xticks([1, 2, 4, 8], labels=["1", "2", "4", "8"])
    b.minorticks_off()
    b.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
