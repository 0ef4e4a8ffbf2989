"""OpenTelemetry spans and metrics (in-memory exporter), structured logs, and graphmem stats."""

from __future__ import annotations

import json
import logging

import pytest

otel_sdk = pytest.importorskip("opentelemetry.sdk", reason="pip install graphmem[otel] (opentelemetry-sdk)")

from opentelemetry import metrics, trace  # noqa: E402
from opentelemetry.sdk.metrics import MeterProvider  # noqa: E402
from opentelemetry.sdk.metrics.export import InMemoryMetricReader  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

from graphmem.core.errors import ValidationError  # noqa: E402


@pytest.fixture(scope="module")
def otel():
    spans = InMemorySpanExporter()
    tp = TracerProvider()
    tp.add_span_processor(SimpleSpanProcessor(spans))
    trace.set_tracer_provider(tp)
    reader = InMemoryMetricReader()
    metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))
    return spans, reader


def _points(reader) -> dict[str, list]:
    out: dict[str, list] = {}
    data = reader.get_metrics_data()
    for rm in data.resource_metrics if data else []:
        for sm in rm.scope_metrics:
            for m in sm.metrics:
                out.setdefault(m.name, []).extend(m.data.data_points)
    return out


def test_writes_context_extraction_and_sweep_make_spans_metrics_and_logs(otel, store, caplog):
    spans, reader = otel
    spans.clear()
    caplog.set_level(logging.INFO, logger="graphmem")
    store.set("deploy", "port", "8000")
    store.ingest("I moved to Hewan Rd on Sep 20.", id="m1", speaker="lin", at="2026-09-18T10:00:00Z")
    ctx = store.context("what port does deploy use?", subject="deploy", budget_tokens=300)
    store.sweep()
    with pytest.raises(ValidationError):
        store.apply({"op": "set", "subject": "x", "topic": "t"})
    names = [s.name for s in spans.get_finished_spans()]
    assert names.count("graphmem.apply") >= 3 and "graphmem.context" in names and "graphmem.sweep" in names
    c = next(s for s in spans.get_finished_spans() if s.name == "graphmem.context")
    assert c.attributes["graphmem.tenant"] == store.tenant
    assert c.attributes["graphmem.used_tokens"] == ctx.used_tokens
    assert c.attributes["graphmem.budget_tokens"] == 300
    assert c.attributes["graphmem.items_dropped"] == len(ctx.left_out)
    failed = [s for s in spans.get_finished_spans() if s.name == "graphmem.apply" and not s.status.is_ok]
    assert failed and failed[-1].attributes["graphmem.tenant"] == store.tenant
    points = _points(reader)
    writes = {p.attributes["op"]: p.value for p in points["graphmem.writes"] if p.attributes["tenant"] == store.tenant}
    assert writes["set"] == 1 and writes["message"] == 1
    assert any(p.attributes["tenant"] == store.tenant for p in points["graphmem.context.tokens_used"])
    assert sum(p.value for p in points["graphmem.extraction.facts"] if p.attributes["tenant"] == store.tenant) >= 1
    assert any(p.attributes.get("op") == "context" for p in points["graphmem.operation.duration"])
    records = [r for r in caplog.records if r.name == "graphmem"]
    ops = [r.graphmem["op"] for r in records]
    assert {"apply", "context", "extraction", "sweep"} <= set(ops)
    for r in records:
        json.dumps(r.graphmem)  # every field is JSON-able
    ctx_log = next(r.graphmem for r in records if r.graphmem["op"] == "context")
    assert ctx_log["used_tokens"] == ctx.used_tokens and ctx_log["budget_tokens"] == 300


def test_working_memory_reports_tokens_and_the_80_percent_warning(otel, store, caplog):
    spans, reader = otel
    caplog.set_level(logging.INFO, logger="graphmem")
    w = store.working("obs", budget_tokens=100)
    w.add("word " * 60, id="a")
    r = w.add("word " * 30, id="b")
    assert r.warning
    warned = [x for x in caplog.records if x.name == "graphmem" and x.levelno == logging.WARNING
              and x.graphmem["op"] == "working.add"]
    assert warned and warned[-1].graphmem["warning"] == r.warning
    points = _points(reader)
    assert any(p.attributes["tenant"] == store.tenant for p in points["graphmem.working.tokens_used"])
    spans.clear()
    w.use("b")
    w.checkpoint({"step": 1}, id="c1")
    w.close("success", task="obs")
    names = {s.name for s in spans.get_finished_spans()}
    assert {"graphmem.working_use", "graphmem.working_checkpoint", "graphmem.working_close"} <= names
    w2 = store.working("obs2")
    spans.clear()
    w2.add("hello there", id="h")
    assert "graphmem.working_add" in {s.name for s in spans.get_finished_spans()}


def test_a_failed_leg_is_counted(otel, store):
    _spans, reader = otel

    class Boom:
        name, dimensions = "boom", 8

        def embed(self, texts):
            raise RuntimeError("down")
    from graphmem import GraphMem
    mem = GraphMem(store.settings, tenant=store.tenant, driver=store._driver, install_schema=False, embedder=Boom())
    ctx = mem.context("anything at all")
    assert ctx.failed_legs == ["vector"]
    legs = [p for p in _points(reader)["graphmem.context.failed_legs"] if p.attributes["tenant"] == store.tenant]
    assert legs and legs[0].attributes["leg"] == "vector"


def test_without_opentelemetry_everything_is_a_no_op(store, monkeypatch):
    from graphmem.store import observe
    monkeypatch.setattr(observe, "_otel", lambda: None)
    store.set("a", "b", "c")
    assert store.context("a b", subject="a").items


def test_erase_rebuild_and_playbook_outcomes_are_spanned_and_working_events_counted(otel, store):
    spans, reader = otel
    spans.clear()
    w = store.working("count")
    w.add("I moved to Hewan Rd on Sep 20.", id="u1", role="user", author="mei")
    w.checkpoint({"step": 1}, id="1")
    w.checkpoint({"step": 1}, id="1")  # a retry: no new event, nothing counted
    w.use("u1")
    w.close("success", task="count")  # the end gate's long-term write is counted too
    store.playbooks.record_outcome("deploy", ["build", "ship"], "failure")
    card = store.playbooks.record_outcome("deploy", ["build", "test", "ship"], "success")
    store.rebuild()
    out = store.erase(subject="mei", reason="asked")
    finished = {s.name: s for s in spans.get_finished_spans()}
    assert {"graphmem.erase", "graphmem.rebuild", "graphmem.playbook_outcome"} <= set(finished)
    e = finished["graphmem.erase"]
    assert e.attributes["graphmem.tenant"] == store.tenant and e.status.is_ok
    assert e.attributes["graphmem.events_redacted"] == out["events_redacted"] >= 1
    assert e.attributes["graphmem.kind"] == "subject"
    assert all("mei" not in str(v) for v in e.attributes.values())  # counts only, never what was erased
    assert finished["graphmem.rebuild"].attributes["graphmem.replayed"] >= 5
    outcomes = [s for s in spans.get_finished_spans() if s.name == "graphmem.playbook_outcome"]
    assert [s.attributes["graphmem.outcome"] for s in outcomes] == ["failure", "success"]
    assert outcomes[-1].attributes["graphmem.card"] == card["uid"]
    ledger: dict[str, int] = {}
    for ev in store.events():
        if '"erased": true' not in ev["payload"]:
            ledger[ev["op"]] = ledger.get(ev["op"], 0) + 1
    writes = {p.attributes["op"]: p.value for p in _points(reader)["graphmem.writes"]
              if p.attributes["tenant"] == store.tenant}
    # every event in the ledger was counted once: the working steps (open, add, checkpoint, use, close),
    # the end gate's message, the card's playbook event, the erase's tombstone (the add and the
    # message, now redacted, counted when written)
    assert writes["working"] == 5 and writes["erase"] == 1 and writes["playbook"] == ledger["playbook"] == 1
    assert writes["message"] == 1
    with pytest.raises(ValidationError):
        store.erase(reason="neither subject nor source")
    failed = [s for s in spans.get_finished_spans() if s.name == "graphmem.erase" and not s.status.is_ok]
    assert failed
