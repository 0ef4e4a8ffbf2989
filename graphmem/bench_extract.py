"""``graphmem bench-extract``: messages per second through the default extractor, on CPU.

Not a timed test: it prints a figure to compare runs on the same machine. The messages are the
free-text statements of the example files (graphmem/examples/messages.json, English and Chinese), cycled; the context is empty.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .extract import default_extractor
from .models import MessageEvent

SAMPLES = [
    ("我常住青禾路。", None), ("我9月20日起搬到河湾路。", None), ("10月3日至7日去海城出差，住海星酒店。", None),
    ("这是9月1日那封邮件，里面写我住青禾路。", None), ("Deploy on the private network, port 8000.", "deploy"),
    ("Change the port to 9000.", "deploy"), ("The deploy is withdrawn, drop the port.", "deploy"),
    ("I'm vegetarian.", None), ("Actually I eat fish now, pescatarian since today.", None),
    ("Found my note from January 2026, it says: I'm vegan.", None), ("I moved to Suzhou on March 1.", None),
    ("生产环境端口是8000。", "svc"), ("测试环境暂时用9000，到11月9日。", "svc"),
]


def run(n: int = 2000) -> dict[str, Any]:
    ex = default_extractor()
    at = datetime(2026, 11, 1, tzinfo=timezone.utc)
    messages = [MessageEvent(op="message", id=f"b{i}", at=at, speaker="lin", text=SAMPLES[i % len(SAMPLES)][0],
                             about=SAMPLES[i % len(SAMPLES)][1]) for i in range(n)]
    ex.extract(messages[0])  # load the pipelines outside the timing
    ex.extract(messages[11])
    t0, c0 = time.perf_counter(), time.process_time()
    drawn = sum(len(ex.extract(m)) for m in messages)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    t1 = time.perf_counter()
    batched = sum(len(events) for events in ex.extract_many(messages))
    batch_seconds = time.perf_counter() - t1
    assert batched == drawn, "extract_many must draw what extract draws"
    # Wall time depends on what else the machine runs; CPU time of this process much less so.
    return {"messages": n, "events_drawn": drawn, "seconds": round(seconds, 3),
            "messages_per_s": round(n / seconds, 1), "messages_per_cpu_s": round(n / max(cpu, 1e-9), 1),
            "batched_messages_per_s": round(n / batch_seconds, 1), "english_pipeline": ex.nlp("en").meta.get("name")}


def run_labelled(path: str | Path) -> dict[str, Any]:
    """Precision and recall per rule family of the default extractor on a labelled set."""
    from .extract.score import load, score

    result = score(default_extractor(), load(path))
    head = f"{'family':<12} {'sentences':>9} {'expected':>8} {'drawn':>6} {'matched':>7} {'precision':>9} {'recall':>6}"
    lines = [head]
    for name, f in result["families"].items():
        lines.append(f"{name:<12} {f['sentences']:>9} {f['expected']:>8} {f['drawn']:>6} {f['matched']:>7} "
                     f"{f['precision']:>9.3f} {f['recall']:>6.3f}")
    return {"file": str(path), "families": result["families"], "misses": result["misses"], "table": "\n".join(lines)}
