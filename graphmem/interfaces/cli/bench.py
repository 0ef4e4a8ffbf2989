"""Benchmarks (never tests): ``bench`` (ingest, as-of, paths, context() and rebuild at scale),
``bench recall`` (LoCoMo), ``bench haystack`` (transcript ingest on long assistant turns), ``bench graphiti`` (beside Graphiti on the same facts), ``bench cli``
(the wall time of one ``graphmem as-of`` process) and ``bench-extract`` (the extractor)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from ...core.errors import GraphMemError
from .common import Commands, DbOpt, JsonOpt, Opts, UriOpt, emit, fail, open_store

if TYPE_CHECKING:
    from ...store.client import GraphMem

cmds = Commands()
bench_cmds = Commands()


def register(app: typer.Typer) -> None:
    """Add the ``bench`` group (with ``recall`` and ``cli``) and ``bench-extract`` to ``app``."""
    group = typer.Typer(help="Benchmarks, never tests: ingest, as-of, paths, context() and rebuild at scale against a "
                             "raw-Cypher baseline; `graphmem bench recall` for context() on LoCoMo; `graphmem bench "
                             "graphiti` beside Graphiti; `graphmem bench cli` for the wall time of one CLI read.\n\n"
                             "Example: graphmem bench --facts 100000 --json", no_args_is_help=False)
    group.callback(invoke_without_command=True)(bench)
    app.add_typer(bench_cmds.register(group), name="bench")
    cmds.register(app)


def bench(ctx: typer.Context, facts: int = typer.Option(10_000, help="how many facts to load"),
          sweep: Optional[str] = typer.Option(None, help="comma-separated sizes, e.g. 10000,100000,1000000"),
          out: Path = typer.Option(Path("bench/results"), help="where --sweep writes JSON and the plot"),
          data: Optional[List[Path]] = typer.Option(None, help="a temporal-KG folder or files (YAGO11k/WIKIDATA12k: "
                                                               "see docs/data.md)"),
          lookups: int = typer.Option(10_000, help="as-of lookups to time"),
          contexts: int = typer.Option(300, help="context() calls to time (each also without a subject)"),
          context_warmup: int = typer.Option(150, help="context() calls (each also without a subject) before "
                                                       "timing: a fresh server's vector search is slow at first"),
          ingest_warmup: int = typer.Option(20_000, help="facts each side loads untimed, into tenants of its own, "
                                                         "before ingest is timed (0: none)"),
          asof_warmup: int = typer.Option(2_000, help="as_of / RETURN 1 pairs asked untimed before the lookups "
                                                      "are timed (0: none)"),
          messages: int = typer.Option(0, help="conversation turns to add before timing context()"),
          writers: Optional[str] = typer.Option(None, help="load test instead: writer processes, e.g. 1,2,4,8"),
          tenants: str = typer.Option("1", help="with --writers: writers dealt over this many tenants, e.g. 1,8"),
          events: int = typer.Option(400, help="with --writers: events per writer"),
          batch: int = typer.Option(10, help="with --writers: events per transaction"),
          readers: int = typer.Option(2, help="with --writers: as_of reader processes running alongside"),
          keep: bool = typer.Option(False, help="keep the bench tenants"),
          uri: Optional[str] = UriOpt, database: Optional[str] = DbOpt, as_json: bool = JsonOpt) -> None:
    """Ingest, as-of, paths, context() and rebuild at scale against a raw-Cypher baseline (not a test);
    with --writers, many writers and readers at once, checked for lost or duplicated events.

    Example: graphmem bench --facts 100000 --json
    Example: graphmem bench --writers 1,2,4,8 --tenants 1,8
    """
    if ctx.invoked_subcommand is not None:
        return  # `graphmem bench recall …`
    from ...bench import bench as bench_mod
    log = (lambda line: typer.echo(line, err=True))
    try:
        with open_store(Opts(uri=uri, database=database), tenant="bench") as store:
            if writers:
                from ...bench.bench_load import sweep_load
                load = sweep_load(store, [int(x) for x in writers.split(",")], [int(x) for x in tenants.split(",")],
                                  out, log=log, events=events, batch=batch, readers=readers, keep=keep)
                typer.echo(json.dumps(load) if as_json else f"written to {out / 'load.json'}")
                return
            if sweep:
                sizes = [int(x) for x in sweep.split(",") if x.strip()]
                results = bench_mod.sweep(store, sizes, out, log=log, files=data, lookups=lookups, contexts=contexts,
                                          keep=keep, messages=messages, context_warmup=context_warmup,
                                          ingest_warmup=ingest_warmup, asof_warmup=asof_warmup)
                typer.echo(json.dumps(results[-1]))
                return
            result = bench_mod.run(store, facts=facts, files=data, lookups=lookups, contexts=contexts, log=log,
                                   keep=keep, messages=messages, context_warmup=context_warmup,
                                   ingest_warmup=ingest_warmup, asof_warmup=asof_warmup)
    except GraphMemError as e:
        fail(e)
    typer.echo(result.table())
    if as_json:
        typer.echo(json.dumps(result.data))


@bench_cmds("recall", store=False, tenant=False)
def bench_recall(opts: Opts, locomo: Optional[Path] = typer.Option(None, "--locomo",
                                                                   help="LoCoMo's data/locomo10.json (fetched by you)"),
                 conversations: Optional[str] = typer.Option(None, help="comma-separated ids (default: all ten)"),
                 out: Path = typer.Option(Path("bench/results"), help="where the JSON and the plot go"),
                 preset: Optional[str] = typer.Option(None, "--config", help="a recall preset (default, facts, "
                                                                             "conversation)"),
                 keep: bool = typer.Option(False, help="keep the bench tenants"),
                 ask: bool = typer.Option(True, "--questions/--ingest-only",
                                          help="--ingest-only: ingest and time, ask nothing"),
                 long_history: Optional[int] = typer.Option(None, "--long-history", help="instead of LoCoMo: one "
                                                            "tenant of N synthetic turns (issue #47: 20000)"),
                 tenants: int = typer.Option(0, "--tenants", help="instead of LoCoMo: T tenants of "
                                             "--tenant-turns synthetic turns each (issue #47: 100)"),
                 tenant_turns: int = typer.Option(500, "--tenant-turns", help="turns a tenant with --tenants"),
                 asks: int = typer.Option(200, "--asks", help="with --long-history/--tenants: timed context() "
                                          "calls"),
                 seed: int = typer.Option(47, "--seed", help="with --long-history/--tenants: the conversations' "
                                          "seed"),
                 prefix: str = typer.Option("bench-long", "--prefix", help="with --long-history/--tenants: the "
                                            "bench tenants' name prefix")) -> None:
    """Evidence recall of context() on LoCoMo, against BM25 and recency in the same run (a benchmark);
    with --long-history N or --tenants T, context() latency on long synthetic histories instead:
    ingest turns/s, the first call of each question shape on emptied plan caches, p50/p95/p99
    beside a RETURN 1 floor (graphmem/bench/long_history.py).

    Example: graphmem bench recall --locomo ~/data/locomo10.json --conversations conv-26,conv-30
    Example: graphmem bench recall --long-history 20000
    Example: graphmem bench recall --tenants 100 --tenant-turns 500
    """
    log = (lambda s: None) if opts.as_json else (lambda s: typer.echo(s, err=True))
    if long_history is not None or tenants:
        from ...bench import long_history as lh
        try:
            with open_store(opts, tenant="bench") as store:
                found = lh.run(store, turns=long_history, tenants=tenants, tenant_turns=tenant_turns, asks=asks,
                               seed=seed, prefix=prefix, keep=keep, log=log)
        except GraphMemError as e:
            fail(e)
        out.mkdir(parents=True, exist_ok=True)
        name = f"long-{long_history}.json" if long_history is not None else f"tenants-{tenants}x{tenant_turns}.json"
        (out / name).write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
        typer.echo(json.dumps(found) if opts.as_json else lh.table(found))
        return
    if locomo is None:
        fail(GraphMemError("give --locomo PATH (LoCoMo's data/locomo10.json), or --long-history N, or --tenants T"))
        return
    from ...bench import bench_recall as br
    with open_store(opts, tenant="bench") as store:
        result = br.run(store, locomo, conversations=conversations.split(",") if conversations else None,
                        keep=keep, config=preset, questions=ask, log=log)
    br.save(result, out)
    br.plot(result, out)
    typer.echo(json.dumps(result) if opts.as_json else br.table(result))


@bench_cmds("haystack", store=False, tenant=False)
def bench_haystack(opts: Opts, turns: int = typer.Option(500, help="turns a conversation (user and assistant "
                                                                   "alternating)"),
                   conversations: int = typer.Option(1, help="how many haystacks, a tenant each"),
                   seed: int = typer.Option(47, help="the first haystack's seed (the next ones: +1, +2, …)"),
                   keep: bool = typer.Option(False, help="keep the bench tenants")) -> None:
    """Transcript ingest speed on a LongMemEval-style haystack (a benchmark): a seeded synthetic
    conversation of long assistant turns (150-400 words: lists, code, explanations) between short
    user turns, some stating facts (graphmem/bench/haystack.py); turns/s and CPU a turn by stage.

    Example: graphmem bench haystack --turns 500 --conversations 2
    """
    from ...bench import bench_recall as br
    with open_store(opts, tenant="bench") as store:
        result = br.run_haystack(store, turns, conversations=conversations, seed=seed, keep=keep,
                                 log=(lambda s: None) if opts.as_json else (lambda s: typer.echo(s, err=True)))
    typer.echo(json.dumps(result) if opts.as_json else br.haystack_table(result))


@bench_cmds("graphiti", tenant=False)
def bench_graphiti(store: GraphMem, opts: Opts,
                   facts: int = typer.Option(60_000, help="how many facts each side loads (at most the data's "
                                                          "distinct facts)"),
                   data: Optional[List[Path]] = typer.Option(None, help="a temporal-KG folder or files (as for "
                                                                        "`graphmem bench`)"),
                   lookups: int = typer.Option(1_000, help="as-of questions, each asked five ways"),
                   out: Path = typer.Option(Path("bench/results"), help="where graphiti-FACTS.json goes")) -> Any:
    """graphmem beside Graphiti (graphiti-core) on the same facts and server, in one run (a
    benchmark): ingest against Graphiti's LLM-free bulk save, and as-of against its hand-written
    Cypher and its hybrid search, with the answers checked. Needs the `graphiti` extra.

    Example: graphmem bench graphiti --data ~/TILP/data --facts 60000 --json
    """
    from ...bench import bench_graphiti as bg
    result = bg.run(store, facts=facts, files=data, lookups=lookups,
                    log=(lambda s: None) if opts.as_json else (lambda s: typer.echo(s, err=True)))
    out.mkdir(parents=True, exist_ok=True)
    (out / f"graphiti-{facts}.json").write_text(json.dumps(result, indent=2) + "\n")
    return result if opts.as_json else bg.table(result)


@bench_cmds("cli")
def bench_cli(store: GraphMem, opts: Opts, runs: int = typer.Option(5, help="timed runs (after one warm-up run)"),
              tenant: str = typer.Option("bench-cli", "--tenant", "-t", help="the tenant read (one fact is written "
                                                                              "to it first)"),
              breakdown: bool = typer.Option(False, "--breakdown", help="also where one call's wall time goes "
                                                                         "(one more run, with -X importtime)")) -> Any:
    """Wall time of `graphmem as-of` as a fresh process (what a shell script pays per read) on a
    warm server, over RUNS runs: each run's seconds, the median, and the CPU seconds a run used;
    with --breakdown, one more run split into the interpreter's start, the imports by package,
    the rest of the command (parse, connect, schema check, read, print) and the exit.

    Example: graphmem bench cli --runs 10 --breakdown
    """
    store.set("deploy", "port", "8080", id="bench-cli-fact")  # idempotent: a rerun writes nothing
    args = ["as-of", "deploy", "port", "-t", tenant]
    result = time_cli_reads(args, runs, opts)
    if breakdown:
        result["breakdown_s"] = cli_breakdown(args, opts)
    if opts.as_json:
        return result
    lines = [f"graphmem as-of over {runs} runs: median {result['median_s']:.3f} s wall "
             f"(min {min(result['wall_s']):.3f}, max {max(result['wall_s']):.3f}); "
             f"{result['cpu_s_per_run']:.3f} CPU s a run"]
    lines += [f"  {seconds:6.3f} s  {part}" for part, seconds in result.get("breakdown_s", {}).items()]
    return "\n".join(lines)


def _cli_command(opts: Opts) -> tuple[list[str], dict[str, str]]:
    """How to start ``graphmem`` from this install, and the environment that points it at the store."""
    import os
    import sys
    exe = Path(sys.executable).parent / "graphmem"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "graphmem.interfaces.cli"]
    env = dict(os.environ, **{k: v for k, v in (("NEO4J_URI", opts.uri), ("NEO4J_DATABASE", opts.database)) if v})
    return cmd, env


def time_cli_reads(args: list[str], runs: int, opts: Opts) -> dict[str, Any]:
    """Run ``graphmem ARGS`` once to warm up, then RUNS times; wall and CPU seconds per run."""
    import resource
    import statistics
    import subprocess
    import time
    cmd, env = _cli_command(opts)
    subprocess.run(cmd + args, env=env, capture_output=True, check=False)
    walls = []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd + args, env=env, capture_output=True, text=True, check=False)
        walls.append(round(time.perf_counter() - t0, 4))
        if proc.returncode != 0:
            raise GraphMemError(f"graphmem {' '.join(args)} failed: {proc.stderr.strip()}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) / max(runs, 1)
    return {"command": "graphmem " + " ".join(args), "runs": runs, "wall_s": walls,
            "median_s": round(statistics.median(walls), 4), "cpu_s_per_run": round(cpu, 4)}


# The probe: the `graphmem` command itself, with the wall clock read when Python runs the first line
# and when the command is done (a JSON line on stderr, after -X importtime's lines).
# The command runs as the console script runs it (entry(): main(), the exit handlers, os._exit); the
# end mark is an exit handler registered before the command (handlers run last-in first-out, so the
# command's own run before it), and "exit" is what the process pays after that.
_PROBE = """import atexit, sys, time
start = time.time()
sys.stderr.write("graphmem-probe: start\\n")  # -X importtime's lines before it are the interpreter's own
from graphmem.interfaces.cli import entry
atexit.register(lambda: sys.stderr.write(f'\\n{{"start": {start!r}, "end": {time.time()!r}}}\\n'))
sys.argv = ["graphmem", *sys.argv[1:]]
entry()
"""


def cli_breakdown(args: list[str], opts: Opts) -> dict[str, float]:
    """One ``graphmem ARGS`` run's wall seconds, split: the interpreter's start (until the first
    line runs), each package's imports (-X importtime: the imports made from graphmem's code or
    the command line, each with what it imports first, by top-level package), the rest of the
    command and the exit. -X importtime slows the imports a little; the parts add up to the wall."""
    import subprocess
    import sys
    import time
    _, env = _cli_command(opts)
    t0 = time.time()
    # -P: the current folder is not put on sys.path (the probe imports this install's graphmem)
    proc = subprocess.run([sys.executable, "-P", "-X", "importtime", "-c", _PROBE, *args], env=env, capture_output=True,
                          text=True, check=False)
    t1 = time.time()
    lines = proc.stderr.splitlines()
    if proc.returncode != 0 or not lines or not lines[-1].startswith("{"):
        raise GraphMemError(f"graphmem {' '.join(args)} failed: {proc.stderr.strip()[-500:]}")
    marks = json.loads(lines[-1])
    imports = import_seconds(lines)
    out = {"interpreter start": marks["start"] - t0}
    out.update({f"import {name}": seconds for name, seconds in imports.items()})
    out["the command after its imports (parse, connect, schema check, read, print)"] = (
        marks["end"] - marks["start"] - sum(imports.values()))
    out["exit"] = t1 - marks["end"]
    out["wall"] = t1 - t0
    return {k: round(v, 4) for k, v in out.items()}


def import_seconds(lines: list[str]) -> dict[str, float]:
    """-X importtime's outermost imports after the probe started (those made by code that is not
    itself an import), their cumulative seconds summed by top-level package, largest first;
    packages under 5 ms together as ``other``."""
    totals: dict[str, float] = {}
    started = False
    for line in lines:
        started = started or line == "graphmem-probe: start"
        if not started or not line.startswith("import time:") or "self [us]" in line:
            continue
        _, cumulative, name = line[len("import time:"):].split("|")
        if name.startswith("  "):
            continue  # nested: counted in its importer's cumulative time
        package = name.strip().split(".")[0]
        totals[package] = totals.get(package, 0.0) + int(cumulative) / 1e6
    out = {k: v for k, v in sorted(totals.items(), key=lambda kv: -kv[1]) if v >= 0.005}
    other = sum(v for v in totals.values() if v < 0.005)
    return {**out, "other": other} if other else out


@cmds("bench-extract", store=False, tenant=False, connect=False)
def bench_extract(opts: Opts, n: int = typer.Option(2000, "--messages", help="how many messages"),
                  labelled: Optional[Path] = typer.Option(None, "--labelled", help="a labelled .jsonl set: score it"),
                  misses: bool = typer.Option(False, "--misses", help="with --labelled: list the sentences missed"),
                  locomo: Optional[Path] = typer.Option(None, "--locomo", help="LoCoMo's data/locomo10.json: yield "
                                                                               "per conversation"),
                  conversations: Optional[List[str]] = typer.Option(None, "--conversation",
                                                                    help="with --locomo: only this one (repeat)"),
                  sample: int = typer.Option(0, "--sample", help="with --locomo: dump this many drawn events"),
                  seed: int = typer.Option(0, "--seed", help="with --sample: the random seed"),
                  out: Optional[Path] = typer.Option(None, "--out", help="with --sample: the JSONL file to write")
                  ) -> None:
    """Messages per second through the default extractor (a benchmark, not a test); with
    --labelled FILE, precision and recall per rule family on that labelled set instead; with
    --locomo FILE, how many turns of LoCoMo draw at least one event (fact or episode).

    Example: graphmem bench-extract --messages 5000
    Example: graphmem bench-extract --labelled tests/data/extraction/heldout.jsonl
    Example: graphmem bench-extract --locomo locomo10.json --conversation conv-26 --sample 200 --seed 1 --out s.jsonl
    """
    from ...bench import bench_extract as be
    if locomo is None and labelled is None:
        emit(be.run(n), opts.as_json)
        return
    try:
        result = (be.run_locomo(locomo, conversations or None, sample, seed, out) if locomo is not None
                  else be.run_labelled(labelled or Path()))  # one of the two is given (above)
    except (OSError, ValueError, KeyError) as e:
        fail(GraphMemError(f"cannot {'read' if locomo is not None else 'score'} {locomo or labelled}: {e}"))
    if locomo is not None:
        emit(result, opts.as_json)
    elif opts.as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
    else:
        typer.echo(result["table"])
        for miss in result["misses"] if misses else []:
            typer.echo(json.dumps(miss, ensure_ascii=False))
