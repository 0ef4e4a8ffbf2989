"""``graphmem bench``: ingest, as-of, paths and rebuild at scale, measured against a baseline
taken in the same run on the same server. A benchmark, never a timed test.

Data: a folder the user gives (``--data DIR``, or ``GRAPHMEM_TEMPORAL_KG``) with the real facts
of YAGO11k and WIKIDATA12k (train+valid+test; where to get them: docs/data.md), or the small
generated sample under tests/data/temporal-kg; loaded as entity-valued facts with their intervals; every relation is a many-valued topic. Above
the ~61k facts the data has, it is replicated into distinct tenants (``…-r0``, ``…-r1``, …) and
the output says so.

What it measures (interleaved per chunk where two things are compared):

a. ingest through the public bulk API (``GraphMem.apply_bulk``), facts/s;
b. the raw limit: the same nodes and edges (entities, facts, HAS_FACT, VALUE, HOLDS, RELATED,
   ledger events, APPLIED_TO) written by one hand-written ``UNWIND … CREATE`` per chunk in a
   tenant of its own (same database: Community has one user database), with the same wire
   format for times, facts/s — the ratio a/b is what matters;
c. 10,000 random as-of point lookups through the client, p50/p99, each beside a ``RETURN 1``
   through the same read path (the round-trip floor), interleaved: ``asof_over_floor``;
d. 1,000 three-hop as-of paths (chains found in the data), p50;
e. ``context()`` for random subjects at random times (subject-scoped, and without a subject),
   p50/p95, with its ratio to the as_of p50 of the same run; ``messages=N`` first adds N
   conversation turns (message events, nothing extracted) so recall ranks over them too;
f. ``rebuild`` of one replica, facts/s;
g. the client's peak RSS.

Correctness: 1,000 as-of questions drawn from the data (years inside, at the edges of and
outside intervals), their expected answers computed from the text files in plain Python,
compared with graphmem's answers.
"""

from __future__ import annotations

import json
import os
import platform
import random
import resource
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

from ..store import queries
from ..store.client import GraphMem
from ..core.errors import ConfigurationError
from .temporal_kg import KGFact, find_files, load, year_start

__all__ = ["BenchResult", "data_files", "default_files", "run"]

def default_files() -> list[Path]:
    """The files under ``GRAPHMEM_TEMPORAL_KG``; without it, a ConfigurationError saying where to get them."""
    from ..core.config import env_config
    folder = env_config().temporal_kg
    if not folder:
        raise ConfigurationError(
            "no temporal-KG data: pass --data DIR (or set GRAPHMEM_TEMPORAL_KG) with YAGO11k/WIKIDATA12k from "
            "the data folder of github.com/xiongsiheng/TILP (see docs/data.md), or try the small generated "
            "sample: --data tests/data/temporal-kg")
    return data_files([folder])


def data_files(data: list[Path] | None) -> list[Path]:
    """``--data`` (folders or files) resolved to fact files; nothing given: :func:`default_files`."""
    if not data:
        return default_files()
    try:
        return find_files(data)
    except FileNotFoundError as e:
        raise ConfigurationError(str(e)) from e


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


@dataclass
class BenchResult:
    data: dict[str, Any]

    def table(self) -> str:
        d = self.data
        rows = [("facts", f"{d['facts']:,} ({d['replication']})"),
                ("ingest (bulk API)", f"{d['ingest_facts_per_s']:,.0f} facts/s"),
                ("raw UNWIND CREATE", f"{d['raw_facts_per_s']:,.0f} facts/s"),
                ("ingest / raw", f"{d['ingest_ratio']:.2f}"),
                ("as_of p50 / p99", f"{d['asof_p50_ms']:.2f} / {d['asof_p99_ms']:.2f} ms ({d['asof_lookups']:,} lookups)"),
                ("as_of ÷ floor", f"{d['asof_over_floor']:.2f} (RETURN 1 p50 {d['asof_floor_p50_ms']:.2f} ms, interleaved)"),
                ("3-hop path p50", "n/a (no three-hop chain among the facts loaded)" if d["path3_p50_ms"] is None else
                 f"{d['path3_p50_ms']:.2f} ms ({d['path3_runs']:,} paths, {d['path3_answered']} answered)"),
                ("context() p50 / p95", "n/a" if d.get("context_p50_ms") is None else
                 f"{d['context_p50_ms']:.2f} / {d['context_p95_ms']:.2f} ms ({d['context_ratio_to_asof_p50']}x as_of p50; "
                 f"no subject {d['context_nosubject_p50_ms']:.2f} / {d['context_nosubject_p95_ms']:.2f} ms)"),
                ("rebuild", f"{d['rebuild_facts_per_s']:,.0f} facts/s ({d['rebuild_ratio_to_ingest']:.2f}x ingest)"),
                ("client peak RSS", f"{d['client_peak_rss_mb']:.0f} MB"),
                ("as-of correctness", f"{d['asof_correct']}/{d['asof_checked']}")]
        width = max(len(r[0]) for r in rows)
        return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


class _Data:
    """The facts, their replicas, and the plain-Python ground truth."""

    def __init__(self, files: list[Path]) -> None:
        self.facts: list[KGFact] = []
        self.skipped: dict[str, int] = {}
        for f in files:
            kg = load(f)
            self.facts.extend(kg.facts)
            for k, v in kg.skipped.items():
                self.skipped[k] = self.skipped.get(k, 0) + v
        self.relations = sorted({f.relation for f in self.facts})
        self.index: dict[tuple[str, str], list[KGFact]] = {}

    def restrict(self, facts: list[KGFact]) -> None:
        """Ground truth over exactly the facts that were loaded into the tenant asked."""
        self.index = {}
        for fact in facts:
            self.index.setdefault((fact.subject, fact.relation), []).append(fact)

    def expected(self, subject: str, relation: str, t: datetime) -> set[str]:
        """Ground truth, straight from the text files: objects whose [start, end] year range holds t."""
        return {f.object for f in self.index.get((subject, relation), [])
                if year_start(f.start) <= t < year_start(f.end + 1)}


def _chunks(facts: list[KGFact], n: int, size: int) -> Iterator[tuple[int, list[KGFact]]]:
    """``n`` facts in chunks, replica by replica (replica k = the data again, in tenant …-rk)."""
    done = 0
    while done < n:
        replica, offset = divmod(done, len(facts))
        take = min(size, n - done, len(facts) - offset)
        yield replica, facts[offset:offset + take]
        done += take


def run(store: GraphMem, *, facts: int, files: list[Path] | None = None, lookups: int = 10_000,
        paths: int = 1_000, checks: int = 1_000, contexts: int = 300, chunk: int = 5_000, seed: int = 7,
        log: Callable[[str], None] = lambda s: None, keep: bool = False, messages: int = 0) -> BenchResult:
    data = _Data(data_files(files))
    if not data.facts:
        raise ValueError("no temporal-KG facts found")
    rng = random.Random(seed)
    run_id = uuid.uuid4().hex[:6]
    prefix = f"bench-{run_id}"
    replicas = (facts + len(data.facts) - 1) // len(data.facts)
    tenants = [store.for_tenant(f"{prefix}-r{k}") for k in range(replicas)]
    raw_tenant = f"{prefix}-raw"
    for mem in tenants:
        mem.apply_bulk([{"op": "topic", "name": r, "cardinality": "many"} for r in data.relations])
    at = datetime(2026, 1, 1, tzinfo=timezone.utc)

    ingest_s = raw_s = 0.0
    done = 0
    seq = 0
    driver = store._driver
    raw_create = queries.get("bench/raw_create").text
    for replica, part in _chunks(data.facts, facts, chunk):
        events = [dict(f.event(), recorded_at=at.isoformat()) for f in part]
        t0 = time.perf_counter()
        tenants[replica].apply_bulk(events, batch_size=chunk)
        ingest_s += time.perf_counter() - t0
        rows = []
        for f, e in zip(part, events):
            seq += 1
            rows.append({"uid": f"r{seq}", "seq": seq, "subject": f"{replica}:{f.subject}", "object": f"{replica}:{f.object}",
                         "topic": f.relation, "valid_from": f.valid_from.isoformat(), "valid_to": f.valid_to.isoformat(),
                         "payload": json.dumps(e)})
        t0 = time.perf_counter()
        driver.execute_query(raw_create, rows=rows, tenant=raw_tenant, at=at.isoformat(), database_=store.settings.database)
        raw_s += time.perf_counter() - t0
        done += len(part)
        log(f"ingested {done:,}/{facts:,} facts (graphmem {done / ingest_s:,.0f}/s, raw {done / raw_s:,.0f}/s)")

    in_store = data.facts[:min(facts, len(data.facts))]
    data.restrict(in_store)
    messages_s = _load_messages(tenants[0], in_store, messages, chunk, rng, log) if messages else None
    keys = sorted({(f.subject, f.relation) for f in in_store})

    def random_question() -> tuple[str, str, datetime]:
        s, r = keys[rng.randrange(len(keys))]
        group = data.index[(s, r)]
        f = group[rng.randrange(len(group))]
        kind = rng.randrange(5)
        year = {0: f.start, 1: f.end, 2: f.end + 1, 3: max(1, f.start - 1)}.get(kind, rng.randint(f.start, f.end))
        t = year_start(min(year, 9998)) if kind in (0, 2) else datetime(min(year, 9998), 7, 1, tzinfo=timezone.utc)
        return s, r, t

    mem = tenants[0]
    latencies: list[float] = []
    floor: list[float] = []
    for i in range(lookups):
        # The floor (RETURN 1 through the same read path) interleaved with as_of, alternating
        # which goes first, so whatever load the machine has weighs on both alike.
        s, r, t = random_question()
        for kind in ((0, 1) if i % 2 else (1, 0)):
            t0 = time.perf_counter()
            if kind:
                mem.as_of(s, r, valid_at=t)
            else:
                mem.round_trip()
            (latencies if kind else floor).append((time.perf_counter() - t0) * 1000)
    log(f"as_of: p50 {percentile(latencies, 50):.2f} ms, p99 {percentile(latencies, 99):.2f} ms; "
        f"floor (RETURN 1) p50 {percentile(floor, 50):.2f} ms: {percentile(latencies, 50) / percentile(floor, 50):.2f}x")

    correct = 0
    wrong: list[str] = []
    for _ in range(checks):
        s, r, t = random_question()
        got = set(mem.as_of(s, r, valid_at=t).values or [])
        want = data.expected(s, r, t)
        if got == want:
            correct += 1
        elif len(wrong) < 5:
            wrong.append(f"{s} {r} @ {t.date()}: expected {sorted(want)} got {sorted(got)}")

    log(f"as_of correctness: {correct}/{checks}")
    chains = _three_hop_chains(data, in_store, rng, paths)
    path_lat = []
    answered = 0
    for start, hops, t in chains:
        t0 = time.perf_counter()
        a = mem.path(start, hops, valid_at=t)
        path_lat.append((time.perf_counter() - t0) * 1000)
        answered += bool(a.values)
    log(f"3-hop paths: p50 {percentile(path_lat, 50):.2f} ms over {len(chains)} chains")

    ctx_lat, wide_lat, ctx_items = [], [], 0
    embed_s = None
    if contexts and mem.embedder is not None:
        # Embeddings are derived copies that context() would otherwise catch up on in its first
        # calls (5,000 facts a call): build them first, and say what that costs.
        t0 = time.perf_counter()
        embedded = mem.embed_pending()
        embed_s = round(time.perf_counter() - t0, 2)
        log(f"embedded {embedded:,} facts for the vector leg ({mem.embedder.name}) in {embed_s} s")
    for _ in range(5 if contexts else 0):  # warm-up: the first calls compile the recall queries' plans (~1 s)
        s, r, t = random_question()
        mem.context(f"{r} of {s}", subject=s, valid_at=t)
        mem.context(f"{r} of {s}", valid_at=t)
    for n in range(contexts):
        s, r, t = random_question()
        task = f"{r} of {s}"
        t0 = time.perf_counter()
        ctx = mem.context(task, subject=s, valid_at=t, budget_tokens=1500)
        ctx_lat.append((time.perf_counter() - t0) * 1000)
        ctx_items += len(ctx.items)
        t0 = time.perf_counter()
        mem.context(task, valid_at=t, budget_tokens=1500)
        wide_lat.append((time.perf_counter() - t0) * 1000)
    if contexts:
        log(f"context: p50 {percentile(ctx_lat, 50):.2f} ms, p95 {percentile(ctx_lat, 95):.2f} ms (subject-scoped); "
            f"p50 {percentile(wide_lat, 50):.2f} ms without a subject")

    ledger_facts = min(facts, len(data.facts))
    log(f"rebuilding {ledger_facts:,} facts...")
    t0 = time.perf_counter()
    mem.rebuild(batch=chunk)
    rebuild_s = time.perf_counter() - t0
    log(f"rebuild of {ledger_facts:,} facts: {rebuild_s:.1f}s")

    ingest_rate = facts / ingest_s
    raw_rate = facts / raw_s
    result = {
        "facts": facts,
        "replication": f"{len(data.facts):,} distinct facts" + (f" replicated into {replicas} tenants" if replicas > 1 else ""),
        "skipped_facts": data.skipped,
        "ingest_facts_per_s": round(ingest_rate, 1),
        "raw_facts_per_s": round(raw_rate, 1),
        "ingest_ratio": round(ingest_rate / raw_rate, 3),
        "asof_lookups": lookups,
        "asof_p50_ms": round(percentile(latencies, 50), 3),
        "asof_p99_ms": round(percentile(latencies, 99), 3),
        "asof_floor_p50_ms": round(percentile(floor, 50), 3),
        "asof_floor_p99_ms": round(percentile(floor, 99), 3),
        "asof_over_floor": round(percentile(latencies, 50) / percentile(floor, 50), 2),
        "path3_runs": len(chains),
        "path3_answered": answered,
        "path3_p50_ms": round(percentile(path_lat, 50), 3) if path_lat else None,
        "messages": messages,
        "messages_per_s": round(messages / messages_s, 1) if messages_s else None,
        "context_runs": contexts,
        "embed_seconds": embed_s,
        "context_p50_ms": round(percentile(ctx_lat, 50), 3) if ctx_lat else None,
        "context_p95_ms": round(percentile(ctx_lat, 95), 3) if ctx_lat else None,
        "context_ratio_to_asof_p50": round(percentile(ctx_lat, 50) / percentile(latencies, 50), 2) if ctx_lat else None,
        "context_items_mean": round(ctx_items / contexts, 1) if contexts else None,
        "context_nosubject_p50_ms": round(percentile(wide_lat, 50), 3) if wide_lat else None,
        "context_nosubject_p95_ms": round(percentile(wide_lat, 95), 3) if wide_lat else None,
        "rebuild_facts_per_s": round(ledger_facts / rebuild_s, 1),
        "rebuild_ratio_to_ingest": round((ledger_facts / rebuild_s) / ingest_rate, 3),
        "client_peak_rss_mb": round(_rss_mb(), 1),
        "asof_checked": checks,
        "asof_correct": correct,
        "asof_wrong_examples": wrong,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
                    "server": store.ping(), "uri": store.settings.uri.split("@")[-1]},
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    if not keep:
        for mem in tenants:
            mem.drop_tenant(batch=5_000)
        store.for_tenant(raw_tenant).drop_tenant(batch=5_000)
    return BenchResult(result)


SPEAKERS = ("ana", "bo", "chen", "dara")


def _load_messages(mem: GraphMem, facts: list[KGFact], n: int, chunk: int, rng: random.Random,
                   log: Callable[[str], None]) -> float:
    """``n`` conversation turns about the loaded facts, as message events into the first tenant, so
    context() ranks over messages too. Each carries ``drawn: []`` (nothing extracted): this measures
    recall over stored turns at scale, not the extractor (``graphmem bench-extract`` does that)."""
    start = datetime(2025, 1, 1, tzinfo=timezone.utc)
    seconds = 0.0
    for lo in range(0, n, chunk):
        batch = []
        for i in range(lo, min(n, lo + chunk)):
            f = facts[rng.randrange(len(facts))]
            speaker = SPEAKERS[i % len(SPEAKERS)]
            text = (f"{speaker} said {f.subject.replace('_', ' ')} {f.relation} {f.object.replace('_', ' ')} "
                    f"from {f.start} to {f.end}, if I remember right.")
            batch.append({"op": "message", "id": f"bench-m{i}", "speaker": speaker, "about": f.subject,
                          "session": f"s{i // 200}", "at": (start + timedelta(minutes=i)).isoformat(),
                          "text": text, "drawn": []})
        t0 = time.perf_counter()
        mem.apply_bulk(batch, batch_size=chunk)
        seconds += time.perf_counter() - t0
        log(f"messages {min(n, lo + chunk):,}/{n:,} ({min(n, lo + chunk) / seconds:,.0f}/s)")
    return seconds


def _three_hop_chains(data: _Data, facts: list[KGFact], rng: random.Random, n: int) -> list[tuple[str, list[str], datetime]]:
    """Chains s -r1-> a -r2-> b -r3-> c whose three intervals share a year, found in the data.

    The search looks at a bounded sample of each hop's facts: hub entities (countries, clubs)
    have thousands, and an exhaustive walk is cubic in them.
    """
    by_subject: dict[str, list[KGFact]] = {}
    for f in facts:
        by_subject.setdefault(f.subject, []).append(f)
    chains: list[tuple[str, list[str], datetime]] = []
    starts = list(by_subject)
    rng.shuffle(starts)
    fan = 12

    def sample(xs: list[KGFact]) -> list[KGFact]:
        return xs if len(xs) <= fan else rng.sample(xs, fan)

    for s in starts:
        found = None
        for f1 in sample(by_subject[s]):
            for f2 in sample(by_subject.get(f1.object, [])):
                for f3 in sample(by_subject.get(f2.object, [])):
                    lo, hi = max(f1.start, f2.start, f3.start), min(f1.end, f2.end, f3.end)
                    if lo <= hi:
                        found = (s, [f1.relation, f2.relation, f3.relation],
                                 datetime(rng.randint(lo, hi), 7, 1, tzinfo=timezone.utc))
                        break
                if found:
                    break
            if found:
                break
        if found:
            chains.append(found)
            if len(chains) >= n:
                return chains
    distinct = len(chains)
    while chains and len(chains) < n:  # fewer distinct chains than asked: repeat them
        chains.append(chains[len(chains) % distinct])
    return chains


def sweep(store: GraphMem, sizes: list[int], out_dir: Path, log: Callable[[str], None] = print, **kw: Any) -> list[dict[str, Any]]:
    """Run the benchmark at each size; write JSON per size and a PNG plot under ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    results = []
    for n in sizes:
        log(f"== {n:,} facts ==")
        r = run(store, facts=n, log=log, **kw).data
        (out_dir / f"bench-{n}.json").write_text(json.dumps(r, indent=2))
        results.append(r)
    _plot(results, out_dir / "sweep.png")
    return results


def _plot(results: list[dict[str, Any]], path: Path) -> None:
    from ..core.extras import require
    require("bench", "matplotlib").use("Agg")
    import matplotlib.pyplot as plt
    xs = [r["facts"] for r in results]
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    a.plot(xs, [r["asof_p50_ms"] for r in results], "o-", label="as_of p50")
    a.plot(xs, [r["asof_p99_ms"] for r in results], "o--", label="as_of p99")
    a.plot(xs, [r["path3_p50_ms"] for r in results], "s-", label="3-hop path p50")
    a.set(xscale="log", yscale="log", xlabel="facts", ylabel="ms", title="read latency")
    a.legend()
    b.plot(xs, [r["ingest_facts_per_s"] for r in results], "o-", label="graphmem bulk ingest")
    b.plot(xs, [r["raw_facts_per_s"] for r in results], "o--", label="raw UNWIND CREATE")
    b.plot(xs, [r["rebuild_facts_per_s"] for r in results], "s-", label="rebuild")
    b.set(xscale="log", yscale="log", xlabel="facts", ylabel="facts/s", title="write rate")
    b.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
