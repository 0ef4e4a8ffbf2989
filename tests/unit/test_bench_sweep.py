"""``graphmem bench --sweep``: one JSON a size, and a plot of ratios only, each against a baseline of
the same run (the round-trip floor for reads, the raw query for writes)."""

from __future__ import annotations

import json

import matplotlib.axes  # graphmem[bench], which dev installs

from graphmem.bench import bench


def _result(facts: int, floor: bool = True) -> dict:
    r = {"facts": facts, "asof_p50_ms": 2.0, "asof_p99_ms": 6.0, "path3_p50_ms": 3.0,
         "ingest_facts_per_s": 1_500.0, "raw_facts_per_s": 3_000.0, "rebuild_facts_per_s": 600.0}
    if floor:
        r |= {"asof_floor_p50_ms": 1.25, "asof_floor_p99_ms": 4.0}
    return r


def test_the_plot_draws_each_ratio_against_its_own_runs_baseline(tmp_path, monkeypatch):
    drawn: dict[str, list] = {}
    real = matplotlib.axes.Axes.plot

    def spy(self, *args, label=None, **kw):
        drawn[label] = list(zip(*args[:2]))
        return real(self, *args, label=label, **kw)

    monkeypatch.setattr(matplotlib.axes.Axes, "plot", spy)
    # the first size was measured before the run had a floor: its read ratios are left out, not zero
    bench._plot([_result(10_000, floor=False), _result(100_000)], tmp_path / "sweep.png")
    assert (tmp_path / "sweep.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert drawn["as_of p50 ÷ RETURN 1 p50"] == [(100_000, 1.6)]
    assert drawn["as_of p99 ÷ RETURN 1 p99"] == [(100_000, 1.5)]
    assert drawn["3-hop path p50 ÷ RETURN 1 p50"] == [(100_000, 2.4)]
    assert drawn["bulk ingest ÷ raw UNWIND CREATE"] == [(10_000, 0.5), (100_000, 0.5)]
    assert drawn["rebuild ÷ raw UNWIND CREATE (it replays --messages too)"] == [(10_000, 0.2), (100_000, 0.2)]


def test_a_sweep_writes_each_sizes_result_then_the_plot(tmp_path, monkeypatch):
    asked = []

    def run(store, *, facts, log, **kw):
        asked.append((facts, kw))
        return bench.BenchResult(_result(facts))

    monkeypatch.setattr(bench, "run", run)
    results = bench.sweep(None, [1_000, 10_000], tmp_path / "out", log=lambda s: None, lookups=5)  # type: ignore[arg-type]
    assert [f for f, _ in asked] == [1_000, 10_000] and all(kw == {"lookups": 5} for _, kw in asked)
    assert [r["facts"] for r in results] == [1_000, 10_000]
    assert json.loads((tmp_path / "out" / "bench-10000.json").read_text())["facts"] == 10_000
    assert (tmp_path / "out" / "sweep.png").stat().st_size > 0
