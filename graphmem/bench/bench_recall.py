"""``graphmem bench recall``: does ``context()`` find what was said? LoCoMo, against BM25 and recency.

LoCoMo (snap-research; ``data/locomo10.json``, CC BY-NC 4.0 — the user fetches it, it is never
shipped) holds ten long multi-session conversations and questions whose evidence is a list of
turn ids. Each conversation is ingested into a tenant of its own with ``mem.ingest_bulk`` (turn id
= message id, speaker, the session's date and time), then every answerable question (category 5,
adversarial, has no evidence) is asked three ways, each filling the same token budget with the
same rule and the same counter (:func:`graphmem.recall.context_text.fit`, which renders items and
keeps a ranked prefix; :func:`graphmem.recall.budget.count_tokens`):

* **graphmem** — ``mem.context(question, budget_tokens=B, valid_at=<the conversation's last
  session>)``; a turn counts as found when it is shown, as a message or as a fact's source;
* **bm25** — ``bm25s`` over the raw turn texts (English stop words), best first;
* **recency** — the latest turns first.

Evidence recall@B is the share of a question's evidence turns that are shown; hit@B is 1 when
any is. Both are averaged per category and overall (and per split: the development
conversations the defaults were tuned on, and the held-out rest). ``context()`` latency p50/p95
and ingest turns/s are measured in the same run. A benchmark, never a timed test.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from ..core.errors import ConfigurationError, ValidationError
from ..recall.context_text import fit
from ..recall.memory_context import ContextItem, MemoryContext, SourceRef

__all__ = ["CATEGORIES", "DEV", "Conversation", "load_locomo", "run"]

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
DEV = ("conv-26", "conv-30", "conv-41", "conv-42", "conv-43")
BUDGETS = (500, 2000)
METHODS = ("graphmem", "bm25", "recency")


@dataclass
class Turn:
    id: str
    speaker: str
    at: datetime
    text: str


@dataclass
class Question:
    text: str
    evidence: list[str]
    category: int


@dataclass
class Conversation:
    id: str
    turns: list[Turn]
    questions: list[Question]

    @property
    def now(self) -> datetime:
        return max(t.at for t in self.turns)


def _when(text: str) -> datetime:
    """LoCoMo's session times: '1:56 pm on 8 May, 2023'."""
    return datetime.strptime(" ".join(text.split()), "%I:%M %p on %d %B, %Y").replace(tzinfo=timezone.utc)


def load_locomo(path: Path, conversations: list[str] | None = None) -> list[Conversation]:
    """The conversations of ``locomo10.json`` (all, or the ids named), with their answerable questions."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ConfigurationError(f"cannot read LoCoMo from {path}: {e}") from e
    out = []
    for c in data:
        if conversations and c["sample_id"] not in conversations:
            continue
        conv, turns, n = c["conversation"], [], 1
        while f"session_{n}" in conv:
            at = _when(conv[f"session_{n}_date_time"])
            for t in conv[f"session_{n}"]:
                # a shared photo is part of what was said: its caption is the only text of it
                text = t["text"] + (f" [shares a photo: {t['blip_caption']}]" if t.get("blip_caption") else "")
                turns.append(Turn(t["dia_id"], t["speaker"], at, text))
            n += 1
        qs = [Question(q["question"], [e for e in q.get("evidence", []) if isinstance(e, str)], q["category"])
              for q in c["qa"] if q.get("category") in CATEGORIES and q.get("evidence")]
        out.append(Conversation(c["sample_id"], turns, qs))
    if conversations and len(out) != len(set(conversations)):
        missing = set(conversations) - {c.id for c in out}
        raise ValidationError(f"no such conversation(s) in {path}: {', '.join(sorted(missing))}")
    return out


# -- the same budget rule for every method ---------------------------------------------------------

def _shown(turns: list[Turn], ranked: list[int], budget: int, tenant: str, now: datetime) -> set[str]:
    """Turn ids a ranked list of turns shows within ``budget``, rendered and fitted like a context."""
    items = [ContextItem(kind="message", subject=turns[i].speaker,
                         source=SourceRef(id=turns[i].id, kind="message", at=turns[i].at, author=turns[i].speaker,
                                          text=turns[i].text), version=i + 1, score=1.0 / (1 + r))
             for r, i in enumerate(ranked)]
    ctx = MemoryContext(task="", tenant=tenant, valid_at=now, known_at=now, ledger_version=len(turns),
                        budget_tokens=budget, items=items)
    return {i.source.id for i in fit(ctx).items if i.source}


def _graphmem_shown(ctx: MemoryContext) -> set[str]:
    return {i.source.id for i in ctx.items if i.source is not None}


@dataclass
class Tally:
    recall: list[float] = field(default_factory=list)
    hit: list[float] = field(default_factory=list)

    def add(self, shown: set[str], evidence: list[str]) -> None:
        found = sum(1 for e in evidence if e in shown)
        self.recall.append(found / len(evidence))
        self.hit.append(1.0 if found else 0.0)

    def summary(self) -> dict[str, Any]:
        n = len(self.recall)
        return {"n": n, "recall": round(sum(self.recall) / n, 4) if n else None,
                "hit": round(sum(self.hit) / n, 4) if n else None}


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 2) if values else 0.0


@dataclass
class _Tallies:
    """What a run counts: a Tally per (split, method, category, budget), context() latencies, and
    what ingest took (turns, wall seconds, CPU seconds of this process)."""

    by_key: dict[tuple[str, str, str, int], Tally] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    turns: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    stages: Any = None  # graphmem.bench.stages.Stages: CPU by stage (parse, rules, episodes, embedding, write)

    def add(self, split: str, cat: str, budget: int, shown: dict[str, set[str]], evidence: list[str]) -> None:
        for method in METHODS:
            for s in (split, "all"):
                for c in (cat, "all"):
                    self.by_key.setdefault((s, method, c, budget), Tally()).add(shown[method], evidence)

    def ingest(self, mem: Any, conv: Conversation) -> None:
        self.ingest_rows(mem, [{"id": t.id, "speaker": t.speaker, "at": t.at.isoformat(), "text": t.text}
                               for t in conv.turns])

    def ingest_rows(self, mem: Any, rows: list[dict[str, Any]]) -> None:
        """``mem.ingest_bulk(rows)``, timed: wall, this process's CPU, and its CPU by stage."""
        from .stages import Stages
        if self.stages is None:
            self.stages = Stages()
        with self.stages.counting(mem.embedder):
            t0, c0 = time.perf_counter(), time.process_time()
            mem.ingest_bulk(rows)
            self.seconds += time.perf_counter() - t0
            self.cpu += time.process_time() - c0
        self.turns += len(rows)


def _ask(bm25s: Any, mem: Any, conv: Conversation, budgets: tuple[int, ...], config: Any, tallies: _Tallies) -> None:
    """Every question of ``conv`` at every budget, three ways (graphmem, BM25, recency)."""
    corpus = bm25s.tokenize([t.text for t in conv.turns], stopwords="en", show_progress=False)
    bm25 = bm25s.BM25()
    bm25.index(corpus, show_progress=False)
    latest_first = sorted(range(len(conv.turns)), key=lambda i: (conv.turns[i].at, i), reverse=True)
    split = "dev" if conv.id in DEV else "heldout"
    for q in conv.questions:
        tokens = bm25s.tokenize([q.text], stopwords="en", show_progress=False)
        if tokens.vocab:
            docs, _ = bm25.retrieve(tokens, k=len(conv.turns), show_progress=False)
            ranked = [int(i) for i in docs[0]]
        else:
            ranked = []
        for budget in budgets:
            t0 = time.perf_counter()
            ctx = mem.context(q.text, budget_tokens=budget, valid_at=conv.now, config=config)
            tallies.latencies.append((time.perf_counter() - t0) * 1000)
            shown = {"graphmem": _graphmem_shown(ctx),
                     "bm25": _shown(conv.turns, ranked, budget, mem.tenant, conv.now),
                     "recency": _shown(conv.turns, latest_first, budget, mem.tenant, conv.now)}
            tallies.add(split, CATEGORIES[q.category], budget, shown, q.evidence)


def _result(store: Any, convs: list[Conversation], budgets: tuple[int, ...], t: _Tallies,
            worker_cpu: float, ingest_load: list[float]) -> dict[str, Any]:
    result: dict[str, Any] = {
        "benchmark": "locomo-recall", "conversations": [c.id for c in convs],
        "questions": sum(len(c.questions) for c in convs), "budgets": list(budgets),
        "ingest_turns": t.turns, "ingest_turns_per_s": round(t.turns / t.seconds, 1),
        # Wall turns/s depends on what else runs: the CPU it took (this process; the parse worker,
        # graphmem/extract/parse_pool.py; not the server's) and the load when ingest ended.
        "ingest_seconds": round(t.seconds, 1),
        "ingest_cpu_ms_per_turn": round(t.cpu * 1000 / t.turns, 2),
        "ingest_worker_cpu_ms_per_turn": round(worker_cpu * 1000 / t.turns, 2),
        "ingest_load_average": ingest_load,
        "ingest_stage_cpu_ms_per_turn": t.stages.report(t.cpu, t.turns) if t.stages is not None else {},
        "context_p50_ms": _pct(t.latencies, 0.5), "context_p95_ms": _pct(t.latencies, 0.95),
        "embedder": getattr(store.embedder, "name", None),
        # Latency and turns/s depend on what else runs: say how busy the machine was (1/5/15 min).
        "load_average": [round(x, 1) for x in os.getloadavg()], "cpus": os.cpu_count(), "scores": {}}
    for (split, method, cat, budget), tally in sorted(t.by_key.items()):
        result["scores"].setdefault(split, {}).setdefault(method, {}).setdefault(cat, {})[str(budget)] = tally.summary()
    return result


def run(store: Any, path: Path, *, conversations: list[str] | None = None, budgets: tuple[int, ...] = BUDGETS,
        keep: bool = False, log: Callable[[str], None] = lambda s: None, config: Any = None,
        questions: bool = True) -> dict[str, Any]:
    """Ingest, ask, score; the result as a JSON-ready dict (see the module docstring).
    ``questions=False`` only ingests (the turns/s figure, without the context() calls)."""
    from ..core.extras import require
    bm25s = require("bench", "bm25s")
    convs = load_locomo(path, conversations)
    tallies = _Tallies()
    from ..extract import parse_pool
    worker_cpu0 = parse_pool.worker_cpu_seconds()
    warm = False
    for conv in convs:
        mem = store.for_tenant(f"bench-locomo-{conv.id}")
        mem.drop_tenant()
        tallies.ingest(mem, conv)
        log(f"{conv.id}: {len(conv.turns)} turns ingested, {len(conv.questions)} questions")
        if questions:
            if not warm:  # the first calls compile query plans and load models: not what a user waits for
                for q in conv.questions[:5]:
                    mem.context(q.text, budget_tokens=max(budgets), valid_at=conv.now, config=config)
                warm = True
            _ask(bm25s, mem, conv, budgets, config, tallies)
        if not keep:
            mem.drop_tenant()
    ingest_load = [round(x, 1) for x in os.getloadavg()]
    return _result(store, convs, budgets, tallies, parse_pool.worker_cpu_seconds() - worker_cpu0, ingest_load)


def table(result: dict[str, Any]) -> str:
    """The figures as text: one line per split, method and budget, categories across."""
    cats = ["all", *CATEGORIES.values()]
    lines = [f"{'split':8} {'method':9} {'budget':>6}  " + "  ".join(f"{c:>17}" for c in cats),
             f"{'':8} {'':9} {'':>6}  " + "  ".join(f"{'recall   hit':>17}" for _ in cats)]
    for split, methods in result["scores"].items():
        for method, by_cat in methods.items():
            for budget in map(str, result["budgets"]):
                row = []
                for c in cats:
                    s = by_cat.get(c, {}).get(budget)
                    row.append(f"{s['recall']:>8.3f} {s['hit']:>8.3f}" if s and s["n"] else f"{'-':>17}")
                lines.append(f"{split:8} {method:9} {budget:>6}  " + "  ".join(row))
    lines.append(f"ingest {result['ingest_turns_per_s']} turns/s wall ({result['ingest_cpu_ms_per_turn']} ms CPU a "
                 f"turn here + {result['ingest_worker_cpu_ms_per_turn']} ms in the parse worker; load "
                 f"{result['ingest_load_average']} on {result['cpus']} CPUs; by stage "
                 f"{_stage_text(result.get('ingest_stage_cpu_ms_per_turn', {}))}) · context() p50 {result['context_p50_ms']} ms, "
                 f"p95 {result['context_p95_ms']} ms · embedder {result['embedder']}")
    return "\n".join(lines)


def _stage_text(stages: dict[str, float]) -> str:
    return ", ".join(f"{k} {v}" for k, v in stages.items()) or "-"


def save(result: dict[str, Any], out: Path) -> Path:
    """The result as JSON under ``out``: ``recall-locomo.json``, or for an ``--ingest-only`` run
    (nothing asked) ``recall-locomo-ingest.json``, so timing the ingest never overwrites the
    recall figures of a full run."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / ("recall-locomo.json" if "all" in result["scores"] else "recall-locomo-ingest.json")
    path.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return path


def plot(result: dict[str, Any], out: Path) -> Path | None:
    """Recall by category at each budget, one bar per method (matplotlib, the bench extra)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    if "all" not in result["scores"]:
        return None  # --ingest-only: nothing was asked
    scores = result["scores"]["all"]
    cats = ["all", *CATEGORIES.values()]
    fig, axes = plt.subplots(1, len(result["budgets"]), figsize=(6 * len(result["budgets"]), 4), sharey=True)
    for ax, budget in zip(axes if len(result["budgets"]) > 1 else [axes], map(str, result["budgets"])):
        for k, method in enumerate(METHODS):
            ys = [scores[method].get(c, {}).get(budget, {}).get("recall") or 0 for c in cats]
            ax.bar([x + k * 0.27 for x in range(len(cats))], ys, width=0.27, label=method)
        ax.set_xticks([x + 0.27 for x in range(len(cats))], cats, rotation=20)
        ax.set_title(f"LoCoMo evidence recall @{budget} tokens")
        ax.set_ylim(0, 1)
    axes_list = axes if len(result["budgets"]) > 1 else [axes]
    axes_list[0].legend()
    fig.tight_layout()
    path = out / "recall-locomo.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path



# -- a LongMemEval-style haystack: ingest only (graphmem/bench/haystack.py) ----------------------------

def run_haystack(store: Any, turns: int = 500, *, conversations: int = 1, seed: int = 47, keep: bool = False,
                 log: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """Ingest ``conversations`` synthetic haystacks of ``turns`` chat rows each (long assistant
    turns, short user turns; :func:`graphmem.bench.haystack.haystack`, seeds ``seed``,
    ``seed + 1``, …) each into a tenant of its own with ``mem.ingest_bulk``, embeddings as the
    store has them; wall turns/s, CPU a turn (this process, by stage, and the parse worker) and
    the load average, as the LoCoMo ``--ingest-only`` run reports them."""
    from ..extract import parse_pool
    from .haystack import haystack, words
    tallies = _Tallies()
    worker_cpu0 = parse_pool.worker_cpu_seconds()
    assistant_words: list[int] = []
    # Not timed: the first import of a process loads spaCy's and wordllama's models and the server
    # plans the write queries (seconds, once) — a running agent has done that long before.
    warm = store.for_tenant(f"bench-haystack-warm-{seed}")
    warm.drop_tenant()
    warm.ingest_bulk(haystack(40, seed=seed - 1))
    warm.drop_tenant()
    for k in range(conversations):
        rows = haystack(turns, seed=seed + k)
        assistant_words += [words(r["content"]) for r in rows if r["role"] == "assistant"]
        mem = store.for_tenant(f"bench-haystack-{seed + k}")
        mem.drop_tenant()
        tallies.ingest_rows(mem, rows)
        log(f"haystack {seed + k}: {len(rows)} turns ingested")
        if not keep:
            mem.drop_tenant()
    load = [round(x, 1) for x in os.getloadavg()]
    worker_cpu = parse_pool.worker_cpu_seconds() - worker_cpu0
    t = tallies
    return {"benchmark": "haystack-ingest", "conversations": conversations, "seed": seed,
            "ingest_turns": t.turns, "ingest_turns_per_s": round(t.turns / t.seconds, 1),
            "ingest_seconds": round(t.seconds, 1), "ingest_cpu_ms_per_turn": round(t.cpu * 1000 / t.turns, 2),
            "ingest_worker_cpu_ms_per_turn": round(worker_cpu * 1000 / t.turns, 2),
            "ingest_stage_cpu_ms_per_turn": t.stages.report(t.cpu, t.turns) if t.stages is not None else {},
            "ingest_load_average": load, "cpus": os.cpu_count(),
            "assistant_words_mean": round(sum(assistant_words) / max(len(assistant_words), 1), 1),
            "embedder": getattr(store.embedder, "name", None)}


def haystack_table(result: dict[str, Any]) -> str:
    return (f"haystack ingest: {result['ingest_turns']} turns ({result['conversations']} × "
            f"{result['ingest_turns'] // max(result['conversations'], 1)}, assistant turns "
            f"{result['assistant_words_mean']} words on average) · {result['ingest_turns_per_s']} turns/s wall · "
            f"{result['ingest_cpu_ms_per_turn']} ms CPU a turn here (by stage "
            f"{_stage_text(result['ingest_stage_cpu_ms_per_turn'])}) + {result['ingest_worker_cpu_ms_per_turn']} ms "
            f"in the parse worker · load {result['ingest_load_average']} on {result['cpus']} CPUs · embedder "
            f"{result['embedder']}")
