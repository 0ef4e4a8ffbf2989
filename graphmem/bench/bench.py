"""``graphmem bench``: ingest, as-of, paths and rebuild at scale, measured against a baseline
taken in the same run on the same server. A benchmark, never a timed test.

Data: a folder the user gives (``--data DIR``, or ``GRAPHMEM_TEMPORAL_KG``) with the real facts
of YAGO11k and WIKIDATA12k (train+valid+test; where to get them: docs/data.md), or the small
generated sample under tests/data/temporal-kg; loaded as entity-valued facts with their intervals; every relation is a many-valued topic. Above
the ~61k facts the data has, it is replicated into distinct tenants (``…-r0``, ``…-r1``, …) and
the output says so.

What it measures (interleaved where two things are compared):

a. ingest through the public bulk API (``GraphMem.apply_bulk``), facts/s: about ``call`` (20,000)
   facts to a call, as an import hands the client its events, ``batch`` (1,000) events to a
   transaction, so the rules of one batch run while the batch before it commits
   (graphmem.store.pipeline); timed after ``ingest_warmup`` (20,000) facts that both sides load
   the same way into tenants of their own (a fresh server runs the write queries cold; the
   warm-up's own ratio is reported too, as ``ingest_warmup_ratio``);
b. the raw limit: the same nodes and edges (entities, facts, HAS_FACT, VALUE, HOLDS, RELATED,
   ledger events, APPLIED_TO) written by one hand-written ``UNWIND … CREATE`` of ``chunk``
   (5,000) rows a transaction, in a tenant of its own (same database: Community has one user
   database), with the same wire format for times, facts/s — the ratio a/b is what matters. The
   two alternate round by round (a call's worth of facts each), so the machine's load weighs on
   both alike;
c. 10,000 random as-of point lookups through the client, p50/p99, each beside a ``RETURN 1``
   through the same read path (the round-trip floor), interleaved: ``asof_over_floor``; timed
   after ``asof_warmup`` (2,000) pairs asked the same way (the reads come after a long write load,
   with the server's read path cold; the warm-up's own ratio is reported, ``asof_warmup_ratio``);
d. 1,000 three-hop as-of paths (chains found in the data), p50;
e. ``context()`` for random subjects at random times (subject-scoped, and without a subject),
   p50/p95, with its ratio to the as_of p50 of the same run, after ``context_warmup`` untimed
   calls (a fresh server's vector search is slow at first; their p50 is reported too);
   ``messages=N`` first adds N conversation turns (message events, nothing extracted) so recall
   ranks over them too;
f. ``rebuild`` of one replica, facts/s;
g. the client's peak RSS.

Correctness: 1,000 as-of questions drawn from the data (years inside, at the edges of and
outside intervals), their expected answers computed from the text files in plain Python,
compared with graphmem's answers.

This module runs the phases in order and assembles the result; what is asked lives in
graphmem.bench.kg_workload, how each phase is timed in graphmem.bench.kg_phases.
"""

from __future__ import annotations

import json
import os
import platform
import random
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from ..store.client import GraphMem
from . import kg_phases as phases
from .kg_workload import KGData, Questions, data_files, default_files, load_messages, three_hop_chains

__all__ = ["BenchResult", "data_files", "default_files", "run"]


@dataclass
class BenchResult:
    data: dict[str, Any]

    def table(self) -> str:
        d = self.data
        rows = [("facts", f"{d['facts']:,} ({d['replication']})"),
                ("ingest (bulk API)", f"{d['ingest_facts_per_s']:,.0f} facts/s"),
                ("raw UNWIND CREATE", f"{d['raw_facts_per_s']:,.0f} facts/s"),
                ("ingest / raw", f"{d['ingest_ratio']:.2f}" + ("" if d.get("ingest_warmup_ratio") is None else
                                                             f" (the untimed warm-up's: {d['ingest_warmup_ratio']:.2f})")),
                ("as_of p50 / p99", f"{d['asof_p50_ms']:.2f} / {d['asof_p99_ms']:.2f} ms ({d['asof_lookups']:,} lookups)"),
                ("as_of ÷ floor", f"{d['asof_over_floor']:.2f} (RETURN 1 p50 {d['asof_floor_p50_ms']:.2f} ms, interleaved"
                                  + ("" if d.get("asof_warmup_ratio") is None else
                                     f"; the untimed warm-up's: {d['asof_warmup_ratio']:.2f}") + ")"),
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


def run(store: GraphMem, *, facts: int, files: list[Path] | None = None, lookups: int = 10_000,
        paths: int = 1_000, checks: int = 1_000, contexts: int = 300, chunk: int = 5_000, batch: int = 1_000,
        call: int = 20_000, seed: int = 7, log: Callable[[str], None] = lambda s: None, keep: bool = False,
        messages: int = 0, context_warmup: int = phases.CONTEXT_WARMUP,
        ingest_warmup: int = phases.INGEST_WARMUP, asof_warmup: int = phases.ASOF_WARMUP) -> BenchResult:
    """The benchmark at ``facts`` facts (see the module docstring); tenants dropped after unless ``keep``."""
    data = KGData(data_files(files))
    if not data.facts:
        raise ValueError("no temporal-KG facts found")
    rng = random.Random(seed)
    prefix = f"bench-{uuid.uuid4().hex[:6]}"
    replicas = (facts + len(data.facts) - 1) // len(data.facts)
    tenants = [store.for_tenant(f"{prefix}-r{k}") for k in range(replicas)]
    raw_tenant = f"{prefix}-raw"
    for mem in tenants:
        mem.apply_bulk([{"op": "topic", "name": r, "cardinality": "many"} for r in data.relations])
    warmed, scratch = phases.ingest_warmup(store, data.facts, min(ingest_warmup, len(data.facts)), chunk, prefix,
                                           log, batch, call, data.relations)
    ingested, ingest_rate = phases.ingest(store, tenants, data.facts, facts, chunk, raw_tenant, log,
                                            batch=batch, call=call)

    in_store = data.facts[:min(facts, len(data.facts))]
    data.restrict(in_store)
    messages_s = load_messages(tenants[0], in_store, messages, chunk, rng, log) if messages else None
    ask = Questions(data, in_store, rng)
    mem = tenants[0]
    looked_up, asof_p50 = phases.asof_lookups(mem, ask, lookups, log, warmup=asof_warmup)
    checked = phases.asof_correctness(mem, ask, data, checks, log)
    walked = phases.paths(mem, three_hop_chains(in_store, rng, paths), log)
    recalled = phases.contexts(mem, ask, contexts, asof_p50, log, warmup=context_warmup)
    rebuilt = phases.rebuild(mem, min(facts, len(data.facts)), chunk, ingest_rate, log)

    result = {
        "facts": facts,
        "replication": f"{len(data.facts):,} distinct facts" + (f" replicated into {replicas} tenants" if replicas > 1 else ""),
        "skipped_facts": data.skipped, **ingested, **warmed, "ingest_chunk": chunk, "ingest_batch": batch, "ingest_call": call,
        **looked_up, **walked,
        "messages": messages, "messages_per_s": round(messages / messages_s, 1) if messages_s else None,
        **recalled, **rebuilt, "client_peak_rss_mb": round(phases.rss_mb(), 1), **checked,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
                    "server": store.ping(), "uri": store.settings.uri.split("@")[-1]},
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    for tenant in scratch:
        store.for_tenant(tenant).drop_tenant(batch=5_000)
    if not keep:
        for mem in tenants:
            mem.drop_tenant(batch=5_000)
        store.for_tenant(raw_tenant).drop_tenant(batch=5_000)
    return BenchResult(result)


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


# Each plotted line: a label, and how it is worked out from one size's result (None: not measured,
# e.g. a result written before the run measured its round-trip floor). Only ratios are drawn: on a
# shared machine the absolute times say more about the neighbours than about graphmem (README).
# context() is left out: 20-100 times the floor, it would flatten the as_of lines, and its goal is
# in milliseconds (the JSON has it).
READ_RATIOS: list[tuple[str, str, Callable[[dict[str, Any]], float | None]]] = [
    ("as_of p50 ÷ RETURN 1 p50", "o-", lambda r: _over(r, "asof_p50_ms", "asof_floor_p50_ms")),
    ("as_of p99 ÷ RETURN 1 p99", "o--", lambda r: _over(r, "asof_p99_ms", "asof_floor_p99_ms")),
    ("3-hop path p50 ÷ RETURN 1 p50", "s-", lambda r: _over(r, "path3_p50_ms", "asof_floor_p50_ms")),
]
WRITE_RATIOS: list[tuple[str, str, Callable[[dict[str, Any]], float | None]]] = [
    ("bulk ingest ÷ raw UNWIND CREATE", "o-", lambda r: _over(r, "ingest_facts_per_s", "raw_facts_per_s")),
    ("rebuild ÷ raw UNWIND CREATE (it replays --messages too)", "s-", lambda r: _over(r, "rebuild_facts_per_s", "raw_facts_per_s")),
]
ASOF_GOAL, INGEST_GOAL = 1.5, 0.5  # the goals of the performance issue, drawn as dotted lines


def _over(result: dict[str, Any], top: str, bottom: str) -> float | None:
    a, b = result.get(top), result.get(bottom)
    return a / b if a is not None and b else None


def _plot(results: list[dict[str, Any]], path: Path) -> None:
    """sweep.png: the read ratios against the round-trip floor and the write ratios against the raw
    query, each measured in the same run, by the number of facts loaded."""
    from ..core.extras import require
    require("bench", "matplotlib").use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.4))
    for axis, lines in ((a, READ_RATIOS), (b, WRITE_RATIOS)):
        for label, style, ratio in lines:
            points = [(r["facts"], v) for r in results if (v := ratio(r)) is not None]
            if points:
                axis.plot(*zip(*points), style, label=label)
    a.axhline(ASOF_GOAL, color="grey", linestyle=":", label=f"goal: as_of p50 ≤ {ASOF_GOAL}× RETURN 1")
    a.set(xscale="log", ylim=(0, None), xlabel="facts", ylabel="× RETURN 1 through the same read path",
          title="reads ÷ the round-trip floor (same run)")
    b.axhline(INGEST_GOAL, color="grey", linestyle=":", label=f"goal: ingest ≥ {INGEST_GOAL}× raw")
    b.set(xscale="log", ylim=(0, 1), xlabel="facts", ylabel="× the raw query's facts/s",
          title="writes ÷ the raw-Cypher limit (same run)")
    for axis in (a, b):
        axis.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
