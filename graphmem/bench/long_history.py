"""``graphmem bench recall --long-history N`` / ``--tenants T --tenant-turns M``: context() on long
histories (issue #47, item 3).

LoCoMo's conversations are ~600 turns; an agent that has talked to someone for a year has tens of
thousands. This bench ingests a seeded synthetic conversation (:mod:`graphmem.bench.chatter`) of N
turns into one tenant — or T conversations of M turns, a tenant each — with ``mem.ingest_bulk``,
then measures, in one run:

* **ingest** turns/s (wall) and the CPU a turn of this process, as the LoCoMo bench reports them;
* **first call** of each question shape (:data:`graphmem.bench.chatter.SHAPES`): the server's
  query caches emptied (``CALL db.clearQueryCaches()``: every plan is planned again), a new client
  on a new driver (``connect_ms``: its construction), then one ``context()`` — cold (what the
  first question of a kind cost before recall's plans were warmed) and, after another emptying,
  once ``warm_plans()`` has run (``warm_plans_ms``; graphmem.recall.warm). Each is measured after
  its own emptying, so no shape rides on another's plans;
* **steady state**: after an untimed warm-up, ``context()`` p50/p95/p99 over the questions (all,
  and by shape), each call beside a ``RETURN 1`` through the same read path (the round-trip
  floor, interleaved so the host's load weighs on both alike), and the load average.

Figures on a shared host are that host's: quote them beside the floor and the load of the same
run. A benchmark, never a timed test; the bench tenants are dropped unless ``keep``.
"""

from __future__ import annotations

import os
import random
import time
from datetime import datetime
from typing import Any, Callable

from .chatter import SHAPES, Ask, Chat, conversation, questions

__all__ = ["clear_plan_caches", "run", "table", "time_calls"]

Log = Callable[[str], None]


def _pct(values: list[float], q: float) -> float | None:
    """The ``q`` quantile (nearest rank) in ms, rounded; None without values."""
    if not values:
        return None
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 2)


def _spread(values: list[float]) -> dict[str, float | None]:
    return {"n": len(values), "p50_ms": _pct(values, 0.5), "p95_ms": _pct(values, 0.95),
            "p99_ms": _pct(values, 0.99)}


def _load() -> list[float]:
    return [round(x, 1) for x in os.getloadavg()]


def clear_plan_caches(store: Any) -> None:
    """Empty the server's query caches (every database's plans: the next call of any query plans it)."""
    from ..store import queries
    store._driver.execute_query(queries.get("bench/clear_query_caches").text, database_=store.settings.database)


def _first_call(store: Any, tenant: str, ask: Ask, now: datetime, warm: bool) -> dict[str, float]:
    """Plans emptied, a new client on a new driver (not warming behind itself), then with ``warm``
    its ``warm_plans()`` run to the end, then the first context() and a second one: each timed."""
    from ..store.client import GraphMem
    clear_plan_caches(store)
    out: dict[str, float] = {}
    t0 = time.perf_counter()
    fresh = GraphMem(store.settings, tenant=tenant, embedder=store.embedder, actor=store.actor, warm=False)
    out["connect_ms"] = (time.perf_counter() - t0) * 1000
    try:
        if warm:
            t0 = time.perf_counter()
            fresh.warm_plans()
            out["warm_plans_ms"] = (time.perf_counter() - t0) * 1000
        for key in ("first_ms", "second_ms"):
            t0 = time.perf_counter()
            fresh.context(ask.text, valid_at=now)
            out[key] = (time.perf_counter() - t0) * 1000
    finally:
        fresh.close()
    return {k: round(v, 1) for k, v in out.items()}


def _first_calls(store: Any, tenant: str, asks: dict[str, Ask], now: datetime, log: Log) -> dict[str, Any]:
    """Per shape, each after its own emptying of the plan caches: the first call cold (what a
    client that does not warm pays) and the first call after ``warm_plans()`` (what a client that
    connected a moment before the question pays: GraphMem warms behind its constructor)."""
    out: dict[str, Any] = {}
    for shape, ask in asks.items():
        cold = _first_call(store, tenant, ask, now, warm=False)
        warmed = _first_call(store, tenant, ask, now, warm=True)
        out[shape] = {"question": ask.text, "connect_ms": cold["connect_ms"], "cold_first_ms": cold["first_ms"],
                      "cold_second_ms": cold["second_ms"], "warm_plans_ms": warmed["warm_plans_ms"],
                      "first_ms": warmed["first_ms"], "second_ms": warmed["second_ms"]}
        log(f"first call, {shape}: cold {cold['first_ms']:.0f} ms (then {cold['second_ms']:.0f}); after "
            f"warm_plans() ({warmed['warm_plans_ms']:.0f} ms) {warmed['first_ms']:.0f} ms (then "
            f"{warmed['second_ms']:.0f})")
    # the floor's own first call: plans emptied, a new driver, RETURN 1
    from ..store.client import GraphMem
    clear_plan_caches(store)
    fresh = GraphMem(store.settings, tenant=tenant, embedder=store.embedder, actor=store.actor, warm=False)
    try:
        t0 = time.perf_counter()
        fresh.round_trip()
        out["floor_first_ms"] = round((time.perf_counter() - t0) * 1000, 1)
    finally:
        fresh.close()
    return out


def time_calls(mems: list[tuple[Any, datetime, list[Ask]]], n: int, warmup: int, seed: int,
           log: Log) -> dict[str, Any]:
    """``warmup`` untimed calls, then ``n`` context() calls spread over the tenants (random, seeded),
    each beside a RETURN 1 through the same read path."""
    rng = random.Random(seed)
    picks = [(mem, now, asks[i % len(asks)]) for i in range(n + warmup)
             for mem, now, asks in [rng.choice(mems)]]
    lat: dict[str, list[float]] = {s: [] for s in SHAPES}
    floor: list[float] = []
    items = 0
    for k, (mem, now, ask) in enumerate(picks):
        t0 = time.perf_counter()
        mem.round_trip()
        t1 = time.perf_counter()
        ctx = mem.context(ask.text, valid_at=now)
        t2 = time.perf_counter()
        if k >= warmup:
            floor.append((t1 - t0) * 1000)
            lat[ask.shape].append((t2 - t1) * 1000)
            items += len(ctx.items)
    every = [x for v in lat.values() for x in v]
    out: dict[str, Any] = {"context": _spread(every), "context_by_shape": {s: _spread(v) for s, v in lat.items()},
           "floor": _spread(floor), "context_items_mean": round(items / max(n, 1), 1),
           "warmup_calls": warmup, "load_average": _load()}
    log(f"context(): p50 {_pct(every, 0.5)} ms, p95 {_pct(every, 0.95)} ms, p99 {_pct(every, 0.99)} ms over {n} "
        f"calls; RETURN 1 p50 {_pct(floor, 0.5)} ms; load {_load()}")
    return out


def run(store: Any, *, turns: int | None = None, tenants: int = 0, tenant_turns: int = 500, asks: int = 200,
        warmup: int = 20, seed: int = 47, prefix: str = "bench-long", keep: bool = False,
        log: Log = lambda s: None) -> dict[str, Any]:
    """Ingest, then time first calls and the steady state (see the module docstring). ``turns``:
    one tenant of that many turns; else ``tenants`` tenants of ``tenant_turns`` each."""
    from ..core.errors import ValidationError
    if turns is None and tenants < 1:
        raise ValidationError("give --long-history N, or --tenants T (with --tenant-turns M)")
    sizes = [turns] if turns is not None else [tenant_turns] * tenants
    if min(sizes) < 8:
        raise ValidationError("a history needs at least 8 turns")
    names = [f"{prefix}-{seed}"] if turns is not None else [f"{prefix}-{seed}-{k}" for k in range(tenants)]
    chats: list[Chat] = [conversation(n, seed=seed + k) for k, n in enumerate(sizes)]
    mems = [store.for_tenant(name) for name in names]
    result: dict[str, Any] = {"benchmark": "long-history", "seed": seed, "tenants": len(names),
                              "turns_per_tenant": sizes[0], "turns": sum(sizes), "questions": asks,
                              "embedder": getattr(store.embedder, "name", None), "cpus": os.cpu_count()}
    try:
        wall = cpu = embed_s = 0.0
        for k, (mem, chat) in enumerate(zip(mems, chats)):
            mem.drop_tenant()
            t0, c0 = time.perf_counter(), time.process_time()
            mem.ingest_bulk(chat.rows)
            wall, cpu = wall + time.perf_counter() - t0, cpu + time.process_time() - c0
            t0 = time.perf_counter()
            if mem.embedder is not None:  # ingest_bulk embeds what it writes: this only catches up
                mem.embed_pending()
            embed_s += time.perf_counter() - t0
            if len(mems) < 10 or (k + 1) % 10 == 0:
                log(f"{mem.tenant}: {len(chat.rows)} turns ingested ({k + 1} of {len(mems)} tenants)")
        total = sum(sizes)
        result.update({"ingest_turns_per_s": round(total / wall, 1), "ingest_seconds": round(wall, 1),
                       "ingest_cpu_ms_per_turn": round(cpu * 1000 / total, 2),
                       "embed_pending_seconds": round(embed_s, 1), "ingest_load_average": _load()})
        log(f"ingested {total} turns at {result['ingest_turns_per_s']} turns/s; load {_load()}")
        sets = [(mem, max(datetime.fromisoformat(r["at"]) for r in chat.rows),
                 questions(chat, max(asks, len(SHAPES)), seed=seed + k)) for k, (mem, chat) in enumerate(zip(mems, chats))]
        mem0, now0, asks0 = sets[0]
        result["first_call"] = _first_calls(store, mem0.tenant, {a.shape: a for a in reversed(asks0)}, now0, log)
        result.update(time_calls(sets, asks, warmup, seed, log))
    finally:
        if not keep:
            for mem in mems:
                mem.drop_tenant()
    return result


def table(result: dict[str, Any]) -> str:
    """The figures as text: ingest, first calls by shape, the steady state by shape, the floor."""
    r = result
    lines = [f"long history: {r['tenants']} tenant(s) × {r['turns_per_tenant']:,} turns ({r['turns']:,} in all), "
             f"seed {r['seed']}, embedder {r['embedder']}",
             f"ingest {r['ingest_turns_per_s']} turns/s wall ({r['ingest_cpu_ms_per_turn']} ms CPU a turn here; "
             f"load {r['ingest_load_average']} on {r['cpus']} CPUs)",
             f"{'shape':8} {'cold 1st':>9} {'warm-up':>8} {'1st ms':>8} {'2nd ms':>8} {'p50 ms':>8} {'p95 ms':>8} "
             f"{'p99 ms':>8} {'n':>5}"]
    for shape in SHAPES:
        f, s = r["first_call"].get(shape, {}), r["context_by_shape"][shape]
        lines.append(f"{shape:8} {f.get('cold_first_ms', '-'):>9} {f.get('warm_plans_ms', '-'):>8} "
                     f"{f.get('first_ms', '-'):>8} {f.get('second_ms', '-'):>8} {s['p50_ms']!s:>8} "
                     f"{s['p95_ms']!s:>8} {s['p99_ms']!s:>8} {s['n']:>5}")
    c, fl = r["context"], r["floor"]
    lines.append(f"{'all':8} {'':>9} {'':>8} {'':>8} {'':>8} {c['p50_ms']!s:>8} {c['p95_ms']!s:>8} "
                 f"{c['p99_ms']!s:>8} {c['n']:>5}")
    lines.append(f"{'RETURN 1':8} {r['first_call']['floor_first_ms']:>9} {'':>8} {'':>8} {'':>8} {fl['p50_ms']!s:>8} "
                 f"{fl['p95_ms']!s:>8} {fl['p99_ms']!s:>8} {fl['n']:>5}")
    lines.append(f"first calls: plans emptied, a new client on a new driver each (cold: no warm-up; 1st: after "
                 f"warm_plans()); load {r['load_average']}")
    return "\n".join(lines)
