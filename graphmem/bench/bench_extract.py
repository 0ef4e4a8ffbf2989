"""``graphmem bench-extract``: messages per second through the default extractor, on CPU.

Not a timed test: it prints a figure to compare runs on the same machine. The messages are the
free-text statements of the example files (graphmem/examples/messages.json, English and Chinese), cycled; the context is empty.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..extract import default_extractor
from ..core.models import MessageEvent

SAMPLES = [
    ("我常住青禾路。", None), ("我9月20日起搬到河湾路。", None), ("10月3日至7日去海城出差，住海星酒店。", None),
    ("这是9月1日那封邮件，里面写我住青禾路。", None), ("Deploy on the private network, port 8000.", "deploy"),
    ("Change the port to 9000.", "deploy"), ("The deploy is withdrawn, drop the port.", "deploy"),
    ("I'm vegetarian.", None), ("Actually I eat fish now, pescatarian since today.", None),
    ("Found my note from January 2026, it says: I'm vegan.", None), ("I moved to Suzhou on March 1.", None),
    ("生产环境端口是8000。", "svc"), ("测试环境暂时用9000，到11月9日。", "svc"),
]


def _plain_pipe_seconds(ex: Any, texts: list[str]) -> float:
    """A plain ``nlp.pipe`` pass (full pipeline, every text, no rules) over the same texts."""
    from ..extract import matmul
    from ..extract.base import language_of

    t0 = time.perf_counter()
    for lang in ("en", "zh"):
        group = [t for t in texts if language_of(t) == lang]
        matmul.pipe(ex.nlp(lang), group, batch_size=256)
    return time.perf_counter() - t0


def run(n: int = 2000) -> dict[str, Any]:
    """What ingest does per message (``draw``: facts and episodes), one message at a time and in
    batches (``extract_many``, as ``ingest_bulk`` parses), beside a plain ``nlp.pipe`` pass over
    the same texts in the same run: wall time depends on what else the machine runs, the ratio
    much less so."""
    ex = default_extractor()
    at = datetime(2026, 11, 1, tzinfo=timezone.utc)
    messages = [MessageEvent(op="message", id=f"b{i}", at=at, speaker="lin", text=SAMPLES[i % len(SAMPLES)][0],
                             about=SAMPLES[i % len(SAMPLES)][1]) for i in range(n)]
    ex.draw(messages[0])  # load the pipelines outside the timing
    ex.draw(messages[11])
    t0, c0 = time.perf_counter(), time.process_time()
    drawn = sum(len(ex.draw(m)) for m in messages)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    t1, c1 = time.perf_counter(), time.process_time()
    batched = sum(len(events) for events in ex.extract_many(messages, episodes=True))
    batch_seconds, batch_cpu = time.perf_counter() - t1, time.process_time() - c1
    assert batched == drawn, "extract_many must draw what draw draws"
    c2 = time.process_time()
    pipe_seconds = _plain_pipe_seconds(ex, [m.text for m in messages])
    pipe_cpu = time.process_time() - c2
    return {"messages": n, "events_drawn": drawn, "seconds": round(seconds, 3),
            "messages_per_s": round(n / seconds, 1), "messages_per_cpu_s": round(n / max(cpu, 1e-9), 1),
            "batched_messages_per_s": round(n / batch_seconds, 1),
            "batched_messages_per_cpu_s": round(n / max(batch_cpu, 1e-9), 1),
            "plain_pipe_messages_per_s": round(n / pipe_seconds, 1),
            "plain_pipe_messages_per_cpu_s": round(n / max(pipe_cpu, 1e-9), 1),
            "batched_to_plain_pipe": round(pipe_seconds / batch_seconds, 2),
            "english_pipeline": ex.nlp("en").meta.get("name")}


def run_labelled(path: str | Path) -> dict[str, Any]:
    """Precision and recall per rule family of the default extractor on a labelled set."""
    from ..extract.score import load, score

    ex = default_extractor()
    rows = load(path)
    result = score(ex, rows)
    head = f"{'family':<12} {'sentences':>9} {'expected':>8} {'drawn':>6} {'matched':>7} {'precision':>9} {'recall':>6}"
    lines = [head]

    def table(families: dict[str, Any]) -> None:
        for name, f in families.items():
            lines.append(f"{name:<12} {f['sentences']:>9} {f['expected']:>8} {f['drawn']:>6} {f['matched']:>7} "
                         f"{f['precision']:>9.3f} {f['recall']:>6.3f}")

    table(result["families"])
    by_lang: dict[str, Any] = {}
    langs = sorted({r.get("lang", "en") for r in rows})
    if len(langs) > 1:  # the same table per language: English and Chinese move separately
        for lang in langs:
            by_lang[lang] = score(ex, [r for r in rows if r.get("lang", "en") == lang])["families"]
            lines.append(f"-- {lang}")
            table(by_lang[lang])
    return {"file": str(path), "families": result["families"], "misses": result["misses"],
            "by_lang": by_lang, "table": "\n".join(lines)}


# -- LoCoMo: how many real chat turns draw anything, and a sample of what they draw ---------------

def _locomo_time(text: str) -> datetime:
    """LoCoMo's session times ("1:56 pm on 8 May, 2023") as aware UTC datetimes."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=timezone.utc)


def locomo_turns(path: str | Path, conversations: list[str] | None = None) -> list[tuple[str, str, MessageEvent]]:
    """(conversation, dia_id, message) for every turn of the chosen conversations, in order."""
    import json

    data = json.loads(Path(path).read_text(encoding="utf-8"))
    known = [c["sample_id"] for c in data]
    unknown = sorted(set(conversations or []) - set(known))
    if unknown:
        raise ValueError(f"no conversation {', '.join(unknown)} in {path} (it has {', '.join(known)})")
    out = []
    for conv in data:
        if conversations and conv["sample_id"] not in conversations:
            continue
        c = conv["conversation"]
        n = 1
        while f"session_{n}" in c:
            at = _locomo_time(c[f"session_{n}_date_time"])
            for turn in c[f"session_{n}"]:
                if turn.get("text", "").strip():
                    out.append((conv["sample_id"], turn["dia_id"], MessageEvent(
                        op="message", id=f"{conv['sample_id']}:{turn['dia_id']}", at=at,
                        speaker=turn["speaker"].lower(), text=turn["text"], session=f"s{n}")))
            n += 1
    return out


def run_locomo(path: str | Path, conversations: list[str] | None = None, sample: int = 0, seed: int = 0,
               out: str | Path | None = None) -> dict[str, Any]:
    """Per conversation: turns, turns that draw at least one event (a fact or an episode) and the
    share of them; the time to draw them, beside a plain ``nlp.pipe`` pass over the same texts in
    the same run. With ``sample``, a seeded random sample of drawn events with their turns goes to
    ``out`` (JSON lines) for someone else to judge."""
    import json
    import random

    ex = default_extractor()
    turns = locomo_turns(path, conversations)
    messages = [m for _, _, m in turns]
    ex.extract_many(messages[:50], episodes=True)  # load the pipelines outside the timing
    t0 = time.perf_counter()
    drawn = ex.extract_many(messages, episodes=True)
    draw_s = time.perf_counter() - t0
    pipe_s = _plain_pipe_seconds(ex, [m.text for m in messages])
    per: dict[str, dict[str, Any]] = {}
    events: list[dict[str, Any]] = []
    for (conv, dia, m), evs in zip(turns, drawn):
        row = per.setdefault(conv, {"turns": 0, "drawing": 0, "facts": 0, "episodes": 0})
        row["turns"] += 1
        kept = [e for e in evs if e.get("op") not in ("source",)]
        row["drawing"] += bool(kept)
        for e in kept:
            row["episodes" if e["op"] == "episode" else "facts"] += 1
            events.append({"conversation": conv, "dia_id": dia, "speaker": m.speaker, "at": m.at.isoformat(),
                           "turn": m.text, "event": e})
    for row in per.values():
        row["yield"] = round(row["drawing"] / row["turns"], 3) if row["turns"] else 0.0
    total_turns = sum(r["turns"] for r in per.values())
    total_drawing = sum(r["drawing"] for r in per.values())
    result: dict[str, Any] = {
        "conversations": per, "turns": total_turns, "drawing": total_drawing,
        "yield": round(total_drawing / total_turns, 3) if total_turns else 0.0,
        "events": len(events), "facts": sum(r["facts"] for r in per.values()),
        "episodes": sum(r["episodes"] for r in per.values()),
        "messages_per_s": round(total_turns / draw_s, 1),
        "plain_pipe_messages_per_s": round(total_turns / pipe_s, 1),
        "ratio_to_plain_pipe": round(pipe_s / draw_s, 2)}
    if sample:
        picked = random.Random(seed).sample(events, min(sample, len(events)))
        if out is not None:
            Path(out).parent.mkdir(parents=True, exist_ok=True)
            with open(out, "w", encoding="utf-8") as f:
                for p in picked:
                    f.write(json.dumps(p, ensure_ascii=False) + "\n")
        result["sample"] = {"size": len(picked), "seed": seed, "out": str(out) if out else None}
    return result
