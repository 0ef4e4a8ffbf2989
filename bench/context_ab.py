"""context() before and after a change, on a long history: an earlier commit's code against the
working tree's, asking the same tenant the same questions in alternating separate processes (the
order flipped each round), so the host's load weighs on both alike. Each round is
``graphmem.bench.long_history.time_calls``: an untimed warm-up, then ASKS calls, each beside a
``RETURN 1`` through the same read path. A developer's tool beside ``graphmem bench recall
--long-history`` (docs/scaling.md, "context() on a long history"), not part of the package.

    graphmem bench recall --long-history 20000 --prefix mine --keep      # leaves mine-47
    NEO4J_URI=… .venv/bin/python bench/context_ab.py mine-47 47 20000 100 COMMIT 3

The earlier commit gets this tree's bench modules (graphmem/bench/chatter.py, long_history.py) so
both sides ask the same questions; its recall code is its own.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def child(tenant: str, seed: int, turns: int, asks: int) -> None:
    from datetime import datetime

    from graphmem import GraphMem
    from graphmem.bench.chatter import conversation, questions
    from graphmem.bench.long_history import time_calls

    chat = conversation(turns, seed=seed)
    now = max(datetime.fromisoformat(r["at"]) for r in chat.rows)
    with GraphMem(tenant=tenant) as mem:
        out = time_calls([(mem, now, questions(chat, asks, seed=seed))], asks, 20, seed, lambda s: None)
    print(json.dumps(out))


def main(tenant: str, seed: int, turns: int, asks: int, commit: str, rounds: int) -> None:
    before = Path(tempfile.mkdtemp(prefix="context-ab-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
    for name in ("chatter.py", "long_history.py"):
        shutil.copy(ROOT / "graphmem" / "bench" / name, before / "graphmem" / "bench" / name)
    sides = {commit: before, "tree": ROOT}
    got: dict[str, list[dict]] = {k: [] for k in sides}
    for r in range(rounds):
        for side in (list(sides) if r % 2 == 0 else list(sides)[::-1]):
            env = dict(os.environ, PYTHONPATH=str(sides[side]))
            proc = subprocess.run([sys.executable, __file__, "--child", tenant, str(seed), str(turns), str(asks)],
                                  env=env, capture_output=True, text=True, check=True)
            d = json.loads(proc.stdout.strip().splitlines()[-1])
            got[side].append(d)
            print(f"round {r + 1} {side:8} context p50 {d['context']['p50_ms']} p95 {d['context']['p95_ms']} p99 "
                  f"{d['context']['p99_ms']} · RETURN 1 p50 {d['floor']['p50_ms']} p95 {d['floor']['p95_ms']} · by "
                  f"shape p50 " + ", ".join(f"{s} {v['p50_ms']}" for s, v in d["context_by_shape"].items())
                  + f" · load {d['load_average']}", flush=True)
    for side, runs in got.items():
        med = {q: statistics.median(x["context"][q] for x in runs) for q in ("p50_ms", "p95_ms", "p99_ms")}
        floor = statistics.median(x["floor"]["p50_ms"] for x in runs)
        print(f"{side:8} median of rounds: context p50 {med['p50_ms']:.1f}, p95 {med['p95_ms']:.1f}, p99 "
              f"{med['p99_ms']:.1f} ms; RETURN 1 p50 {floor:.2f} ms")
    shutil.rmtree(before)


if __name__ == "__main__":
    if sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    else:
        main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], int(sys.argv[6]))
