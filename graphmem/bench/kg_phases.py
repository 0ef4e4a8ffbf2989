"""The measured phases of ``graphmem bench``, one function each (the module docstring of
graphmem.bench.bench says what each measures and why): ingest beside the raw ``UNWIND … CREATE``
limit, as-of lookups beside the round-trip floor, the as-of correctness check, three-hop paths,
``context()`` and ``rebuild``. Each returns its figures as the JSON fields of the result, in the
order the result lists them; graphmem.bench.kg_workload draws what they ask."""

from __future__ import annotations

import json
import resource
import time
from datetime import datetime, timezone
from typing import Any, Callable

from ..core.tenant_key import tenant_key
from ..store import queries
from ..store.client import GraphMem
from .kg_workload import KGData, Questions, chunks
from .temporal_kg import KGFact

__all__ = ["ASOF_WARMUP", "INGEST_WARMUP", "asof_correctness", "asof_lookups", "contexts", "ingest", "ingest_warmup",
           "paths", "percentile", "raw_rows", "raw_write", "rebuild", "rss_mb"]

Log = Callable[[str], None]
AT = datetime(2026, 1, 1, tzinfo=timezone.utc)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def raw_rows(part: list[KGFact], events: list[dict[str, Any]], replica: int, seq: int) -> list[dict[str, Any]]:
    """The raw baseline's rows for one chunk: the same facts and ledger payloads, numbered on from ``seq``."""
    return [{"uid": f"r{n}", "seq": n, "subject": f"{replica}:{f.subject}", "object": f"{replica}:{f.object}",
             "topic": f.relation, "valid_from": f.valid_from.isoformat(), "valid_to": f.valid_to.isoformat(),
             "payload": json.dumps(e)} for n, (f, e) in enumerate(zip(part, events), seq + 1)]


def raw_write(store: GraphMem, raw_create: str, rows: list[dict[str, Any]], tenant: str) -> None:
    """One transaction of the raw baseline (``bench/raw_create``), through the driver the way
    graphmem's own calls go (``queries.sendable``), so neither side pays for the driver's debug text."""
    params = queries.sendable({"rows": rows, "tenant": tenant, "tenant_key": tenant_key(tenant), "at": AT.isoformat()})
    store._driver.execute_query(raw_create, params, database_=store.settings.database)


def ingest(store: GraphMem, tenants: list[GraphMem], facts: list[KGFact], n: int, chunk: int, raw_tenant: str,
           log: Log, batch: int, call: int) -> tuple[dict[str, float], float]:
    """``n`` facts, round by round (about ``call`` facts a round), each side loading a round its own best
    way: graphmem in one ``apply_bulk`` call (``batch`` events to a transaction, pipelined inside the
    call, as an import hands it its events), the raw query ``chunk`` rows to a transaction. Rounds
    alternate between the two, so the load of the machine weighs on both alike. Returns the facts/s
    of each, and graphmem's unrounded rate (what rebuild is compared with)."""
    ingest_s = raw_s = 0.0
    done = seq = 0
    raw_create = queries.get("bench/raw_create").text
    for replica, part in chunks(facts, n, call):
        events = [dict(f.event(), recorded_at=AT.isoformat()) for f in part]
        t0 = time.perf_counter()
        tenants[replica].apply_bulk(events, batch_size=batch)
        ingest_s += time.perf_counter() - t0
        rows = raw_rows(part, events, replica, seq)
        seq += len(rows)
        t0 = time.perf_counter()
        for lo in range(0, len(rows), chunk):
            raw_write(store, raw_create, rows[lo:lo + chunk], raw_tenant)
        raw_s += time.perf_counter() - t0
        done += len(part)
        log(f"ingested {done:,}/{n:,} facts (graphmem {done / ingest_s:,.0f}/s, raw {done / raw_s:,.0f}/s)")
    ingest_rate, raw_rate = n / ingest_s, n / raw_s
    return {"ingest_facts_per_s": round(ingest_rate, 1), "raw_facts_per_s": round(raw_rate, 1),
            "ingest_ratio": round(ingest_rate / raw_rate, 3)}, ingest_rate


# Facts each side loads, untimed, into tenants of its own before ingest is timed: a fresh server
# runs graphmem's dozen write queries cold (plans, JIT) while the raw baseline is one query, so the
# first round alone came out at 0.25 of raw in the 1M run against 0.39-0.55 for the rest.
INGEST_WARMUP = 20_000


def ingest_warmup(store: GraphMem, facts: list[KGFact], n: int, chunk: int, prefix: str, log: Log, batch: int,
                  call: int, topics: list[str]) -> tuple[dict[str, Any], list[str]]:
    """``n`` facts through both sides exactly as :func:`ingest` loads them, into tenants of their
    own, before anything is timed; their own ratio is reported (the cold figure stays visible).
    Returns the figures and the tenants to drop with the others."""
    if n <= 0:
        return {"ingest_warmup_facts": 0, "ingest_warmup_ratio": None}, []
    warm = store.for_tenant(f"{prefix}-warmup")
    warm.apply_bulk([{"op": "topic", "name": r, "cardinality": "many"} for r in topics])
    got, _ = ingest(store, [warm], facts[:n], n, chunk, f"{prefix}-warmup-raw", lambda line: None, batch, call)
    log(f"warm-up, untimed: {n:,} facts (graphmem {got['ingest_facts_per_s']:,.0f}/s, "
        f"raw {got['raw_facts_per_s']:,.0f}/s: {got['ingest_ratio']:.2f})")
    return {"ingest_warmup_facts": n, "ingest_warmup_ratio": got["ingest_ratio"]}, [warm.tenant, f"{prefix}-warmup-raw"]


# Pairs of as_of and RETURN 1 asked, untimed, before the timed ones: the bench reaches its reads
# after a long write load, with the server's read path (the query's operators, the result's
# encoding) still cold. From a freshly started server, on a kept 61,039-fact tenant, blocks of 500
# pairs gave as_of ÷ floor 1.71 / 1.63 / 1.66 / 1.53, then 1.44–1.53 (three restarts alike); after
# a 40,000-fact write load first, 1.48–1.62 in the first block and 1.42–1.57 after the fourth.
ASOF_WARMUP = 2_000


def _asof_pairs(mem: GraphMem, ask: Questions, n: int) -> tuple[list[float], list[float]]:
    """``n`` as_of calls, each beside a ``RETURN 1`` through the same read path, alternating which
    goes first, so whatever load the machine has weighs on both alike; their times in ms."""
    latencies: list[float] = []
    floor: list[float] = []
    for i in range(n):
        s, r, t = ask()
        for kind in ((0, 1) if i % 2 else (1, 0)):
            t0 = time.perf_counter()
            if kind:
                mem.as_of(s, r, valid_at=t)
            else:
                mem.round_trip()
            (latencies if kind else floor).append((time.perf_counter() - t0) * 1000)
    return latencies, floor


def asof_lookups(mem: GraphMem, ask: Questions, lookups: int, log: Log,
                 warmup: int = ASOF_WARMUP) -> tuple[dict[str, Any], float]:
    """``lookups`` as_of calls, each beside a ``RETURN 1`` (the floor), after ``warmup`` pairs
    asked the same way and not counted (their own ratio is reported: the cold figure stays
    visible); the figures, and the unrounded as_of p50 (what context() is compared with)."""
    warm: dict[str, Any] = {"asof_warmup": warmup, "asof_warmup_ratio": None}
    if warmup > 0:
        cold, cold_floor = _asof_pairs(mem, ask, warmup)
        warm["asof_warmup_ratio"] = round(percentile(cold, 50) / percentile(cold_floor, 50), 2)
        log(f"as_of warm-up, untimed: {warmup:,} pairs, {warm['asof_warmup_ratio']:.2f}x the floor")
    latencies, floor = _asof_pairs(mem, ask, lookups)
    p50, floor50 = percentile(latencies, 50), percentile(floor, 50)
    log(f"as_of: p50 {p50:.2f} ms, p99 {percentile(latencies, 99):.2f} ms; "
        f"floor (RETURN 1) p50 {floor50:.2f} ms: {p50 / floor50:.2f}x")
    return {"asof_lookups": lookups, "asof_p50_ms": round(p50, 3), "asof_p99_ms": round(percentile(latencies, 99), 3),
            "asof_floor_p50_ms": round(floor50, 3), "asof_floor_p99_ms": round(percentile(floor, 99), 3),
            "asof_over_floor": round(p50 / floor50, 2), **warm}, p50


def asof_correctness(mem: GraphMem, ask: Questions, data: KGData, checks: int, log: Log) -> dict[str, Any]:
    """``checks`` as_of answers compared with the ground truth; the first five that differ, shown."""
    correct = 0
    wrong: list[str] = []
    for _ in range(checks):
        s, r, t = ask()
        got = set(mem.as_of(s, r, valid_at=t).values or [])
        want = data.expected(s, r, t)
        if got == want:
            correct += 1
        elif len(wrong) < 5:
            wrong.append(f"{s} {r} @ {t.date()}: expected {sorted(want)} got {sorted(got)}")
    log(f"as_of correctness: {correct}/{checks}")
    return {"asof_checked": checks, "asof_correct": correct, "asof_wrong_examples": wrong}


def paths(mem: GraphMem, chains: list[tuple[str, list[str], datetime]], log: Log) -> dict[str, Any]:
    """A three-hop as-of path per chain: p50, and how many answered."""
    path_lat = []
    answered = 0
    for start, hops, t in chains:
        t0 = time.perf_counter()
        a = mem.path(start, hops, valid_at=t)
        path_lat.append((time.perf_counter() - t0) * 1000)
        answered += bool(a.values)
    log(f"3-hop paths: p50 {percentile(path_lat, 50):.2f} ms over {len(chains)} chains")
    return {"path3_runs": len(chains), "path3_answered": answered,
            "path3_p50_ms": round(percentile(path_lat, 50), 3) if path_lat else None}


def _embed_first(mem: GraphMem, log: Log) -> float | None:
    """Embeddings are derived copies that context() would otherwise catch up on in its first calls
    (5,000 facts a call): build them first, and say what that costs (None: no embedder)."""
    if mem.embedder is None:
        return None
    t0 = time.perf_counter()
    embedded = mem.embed_pending()
    embed_s = round(time.perf_counter() - t0, 2)
    log(f"embedded {embedded:,} facts for the vector leg ({mem.embedder.name}) in {embed_s} s")
    return embed_s


CONTEXT_WARMUP = 150


def contexts(mem: GraphMem, ask: Questions, n: int, asof_p50: float, log: Log,
             warmup: int = CONTEXT_WARMUP) -> dict[str, Any]:
    """``n`` context() calls scoped to a subject, each beside one without a subject, after
    ``warmup`` such pairs. The warm-up is long because the server's is: a server that has just
    started, or has run no vector search yet, runs them up to 4x slower for its first ~1,000 (the
    JIT compiles the vector search; measured on this machine after a restart: the p50 of 30 queries
    of the source index fell from 20 ms in the first round to ~5.5 ms by the fifteenth), and each
    call runs three. What a long-running server does is what a user waits for; the warm-up calls'
    own p50 is reported beside, so the cold figure is not hidden."""
    ctx_lat: list[float] = []
    wide_lat: list[float] = []
    warm_lat: list[float] = []
    ctx_items = 0
    embed_s = _embed_first(mem, log) if n else None
    for _ in range(warmup if n else 0):  # the first calls compile the recall queries' plans and the server's JIT
        s, r, t = ask()
        t0 = time.perf_counter()
        mem.context(f"{r} of {s}", subject=s, valid_at=t)
        warm_lat.append((time.perf_counter() - t0) * 1000)
        mem.context(f"{r} of {s}", valid_at=t)
    for _ in range(n):
        s, r, t = ask()
        task = f"{r} of {s}"
        t0 = time.perf_counter()
        ctx = mem.context(task, subject=s, valid_at=t, budget_tokens=1500)
        ctx_lat.append((time.perf_counter() - t0) * 1000)
        ctx_items += len(ctx.items)
        t0 = time.perf_counter()
        mem.context(task, valid_at=t, budget_tokens=1500)
        wide_lat.append((time.perf_counter() - t0) * 1000)
    if n:
        log(f"context: p50 {percentile(ctx_lat, 50):.2f} ms, p95 {percentile(ctx_lat, 95):.2f} ms (subject-scoped); "
            f"p50 {percentile(wide_lat, 50):.2f} ms without a subject; warm-up p50 "
            f"{percentile(warm_lat, 50) if warm_lat else float('nan'):.2f} ms over {len(warm_lat)} calls")

    def ms(values: list[float], q: float) -> float | None:
        return round(percentile(values, q), 3) if values else None
    return {"context_runs": n, "embed_seconds": embed_s, "context_p50_ms": ms(ctx_lat, 50),
            "context_p95_ms": ms(ctx_lat, 95),
            "context_ratio_to_asof_p50": round(percentile(ctx_lat, 50) / asof_p50, 2) if ctx_lat else None,
            "context_items_mean": round(ctx_items / n, 1) if n else None,
            "context_nosubject_p50_ms": ms(wide_lat, 50), "context_nosubject_p95_ms": ms(wide_lat, 95),
            "context_warmup_calls": len(warm_lat), "context_warmup_p50_ms": ms(warm_lat, 50)}


def rebuild(mem: GraphMem, ledger_facts: int, chunk: int, ingest_rate: float, log: Log) -> dict[str, float]:
    """``rebuild`` of the first tenant: facts/s, and its ratio to the bulk ingest's."""
    log(f"rebuilding {ledger_facts:,} facts...")
    t0 = time.perf_counter()
    mem.rebuild(batch=chunk)
    rebuild_s = time.perf_counter() - t0
    log(f"rebuild of {ledger_facts:,} facts: {rebuild_s:.1f}s")
    return {"rebuild_facts_per_s": round(ledger_facts / rebuild_s, 1),
            "rebuild_ratio_to_ingest": round((ledger_facts / rebuild_s) / ingest_rate, 3)}
