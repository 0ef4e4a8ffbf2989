"""Interleaved wall and CPU seconds of `graphmem as-of` from two installs (a benchmark, not a test).

    graphmem bench cli --runs 1          # writes the fact it reads (tenant bench-cli), once
    python bench/cli_ab.py OLD/bin/graphmem NEW/bin/graphmem 7

Each run is a fresh process against a warm server; the two commands alternate so that both see the
same load. Prints the median wall and CPU seconds (user + system) of each.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time

ARGS = ["as-of", "deploy", "port", "-t", "bench-cli"]


def run(exe: str) -> tuple[float, float]:
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([exe, *ARGS], capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0 or "8080" not in proc.stdout:
        sys.exit(f"{exe} {' '.join(ARGS)} failed: {proc.stderr.strip()} (run `graphmem bench cli --runs 1` first)")
    return wall, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime


def main() -> None:
    old, new, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 5
    times: dict[str, list[tuple[float, float]]] = {old: [], new: []}
    for exe in (old, new):
        run(exe)  # warm-up: page cache, bytecode
    for _ in range(runs):
        for exe in (old, new):
            times[exe].append(run(exe))
    for exe, label in ((old, "before"), (new, "after")):
        wall = [w for w, _ in times[exe]]
        cpu = [c for _, c in times[exe]]
        print(f"{label}: wall median {statistics.median(wall):.3f} s (runs {' '.join(f'{w:.2f}' for w in wall)}); "
              f"CPU median {statistics.median(cpu):.3f} s")
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
