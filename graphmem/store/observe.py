"""Observability: OpenTelemetry traces and metrics (optional), and structured logs (always).

``pip install graphmem[otel]`` brings ``opentelemetry-api``; without it every call here is a
no-op except the log line. graphmem never configures a provider: the application does (an OTLP
exporter, a Prometheus reader…), and graphmem's spans and instruments go wherever it points.

What is recorded, for every write, ``context()``, extraction and sweep:

* a span ``graphmem.<op>`` with the tenant and the op's figures as attributes, ended when the plan
  finishes (its duration covers the database round trips), marked as an error when it raises;
* metrics — ``graphmem.operation.duration`` (ms, by op and outcome), ``graphmem.writes`` (events,
  by op), ``graphmem.context.tokens_used`` and ``graphmem.context.budget_tokens`` (histograms),
  ``graphmem.context.items_dropped`` (items the budget left out), ``graphmem.context.failed_legs``
  (by leg), ``graphmem.extraction.messages`` / ``graphmem.extraction.facts`` (extraction yield),
  ``graphmem.sweep.expired``, ``graphmem.working.tokens_used`` and ``graphmem.working.evicted``;
* a log record on the ``graphmem`` logger, message ``graphmem.<op>``, whose ``graphmem`` attribute
  is a JSON-able dict of the same figures (a JSON formatter prints it as is).
"""

from __future__ import annotations

import logging
import time
from typing import Any, Callable, Generator, TypeVar

__all__ = ["context_summary", "count_writes", "emit", "erase_summary", "extraction_yield", "mapped", "observed_plan",
           "write_summary"]

T = TypeVar("T")
U = TypeVar("U")
log = logging.getLogger("graphmem")
log.addHandler(logging.NullHandler())  # a library never prints unless the application configures logging
_instruments: dict[tuple[int, str], Any] = {}


def _otel() -> tuple[Any, Any] | None:
    try:
        import opentelemetry.metrics as metrics
        import opentelemetry.trace as trace
    except ImportError:
        return None
    return trace, metrics


def _instrument(kind: str, name: str, unit: str = "1", description: str = "") -> Any:
    api = _otel()
    if api is None:
        return None
    provider = api[1].get_meter_provider()
    key = (id(provider), name)
    if key not in _instruments:
        meter = api[1].get_meter("graphmem")
        make = meter.create_histogram if kind == "histogram" else meter.create_counter
        _instruments[key] = make(name, unit=unit, description=description)
    return _instruments[key]


def _count(name: str, value: float, attrs: dict[str, Any], unit: str = "1") -> None:
    inst = _instrument("counter", name, unit)
    if inst is not None and value:
        inst.add(value, attributes=attrs)


def _record(name: str, value: float, attrs: dict[str, Any], unit: str = "1") -> None:
    inst = _instrument("histogram", name, unit)
    if inst is not None:
        inst.record(value, attributes=attrs)


def _plain(fields: dict[str, Any]) -> dict[str, Any]:
    """Span attributes take str, bool, int, float and lists of them; anything else becomes text."""
    out: dict[str, Any] = {}
    for k, v in fields.items():
        if v is None:
            continue
        if isinstance(v, (str, bool, int, float)):
            out[k] = v
        elif isinstance(v, (list, tuple)) and all(isinstance(x, (str, bool, int, float)) for x in v):
            out[k] = list(v)
        else:
            out[k] = str(v)
    return out


def emit(op: str, fields: dict[str, Any], level: int = logging.INFO) -> None:
    """One structured log record ``graphmem.<op>`` with ``fields`` (JSON-able) as its ``graphmem`` attribute."""
    if log.isEnabledFor(level):
        log.log(level, "graphmem.%s", op, extra={"graphmem": {"op": op, **_plain(fields)}})


def write_summary(result: Any) -> dict[str, Any]:
    """Figures of a write: events applied, facts written, duplicates."""
    results = result if isinstance(result, list) else [result]
    ops: dict[str, int] = {}
    for r in results:
        op = getattr(r, "op", None)
        if op:
            ops[op] = ops.get(op, 0) + 1
    return {"events": len(results), "facts": sum(len(getattr(r, "facts", []) or []) for r in results),
            "duplicates": sum(bool(getattr(r, "duplicate", False)) for r in results), "ops": ops}


def context_summary(ctx: Any) -> dict[str, Any]:
    """Figures of a context(): tokens used vs budget, items kept and dropped, legs failed, gaps."""
    return {"used_tokens": ctx.used_tokens, "budget_tokens": ctx.budget_tokens, "items": len(ctx.items),
            "items_dropped": len(ctx.left_out), "failed_legs": list(getattr(ctx, "failed_legs", []) or []),
            "gaps": len(getattr(ctx, "gaps", []) or []), "working_items": len(getattr(ctx, "working", []) or [])}


def count_writes(tenant: str, ops: dict[str, int]) -> None:
    """``graphmem.writes``: ledger events written, by op — called once a write's transaction has
    committed (a retried transaction is counted once), for every path that appends to the ledger."""
    for kind, n in ops.items():
        _count("graphmem.writes", n, {"tenant": tenant, "op": kind})


def erase_summary(out: dict[str, Any]) -> dict[str, Any]:
    """Figures of an erase: how many ledger events were redacted, facts and sources removed, events
    replayed — counts only, never what was erased."""
    return {k: out.get(k) for k in ("kind", "events_redacted", "facts", "sources", "working_evicted", "replayed")}


def _metrics(op: str, tenant: str, figures: dict[str, Any]) -> None:
    attrs = {"tenant": tenant}
    if op == "context":
        _record("graphmem.context.tokens_used", figures["used_tokens"], attrs, "{token}")
        _record("graphmem.context.budget_tokens", figures["budget_tokens"], attrs, "{token}")
        _count("graphmem.context.items_dropped", figures["items_dropped"], attrs)
        for leg in figures["failed_legs"]:
            _count("graphmem.context.failed_legs", 1, {**attrs, "leg": leg})
    elif op == "sweep":
        _count("graphmem.sweep.expired", figures.get("expired", 0), attrs)


def observed_plan(op: str, tenant: str, plan: Generator[Any, Any, T],
                  summarize: Callable[[T], dict[str, Any]] | None = None,
                  attrs: dict[str, Any] | None = None) -> Generator[Any, Any, T]:
    """Run ``plan`` unchanged, inside a span, and record its duration, its figures and a log line."""
    api = _otel()
    span = api[0].get_tracer("graphmem").start_span(f"graphmem.{op}", attributes=_plain(
        {"graphmem.tenant": tenant, **(attrs or {})})) if api else None
    start = time.perf_counter()
    try:
        result = yield from plan
    except BaseException as e:
        ms = (time.perf_counter() - start) * 1000
        if not isinstance(e, GeneratorExit):
            _record("graphmem.operation.duration", ms, {"tenant": tenant, "op": op, "outcome": "error"}, "ms")
            emit(op, {"tenant": tenant, "duration_ms": round(ms, 3), "error": type(e).__name__, **(attrs or {})},
                 logging.WARNING)
        if span is not None:
            span.record_exception(e)
            span.set_status(api[0].Status(api[0].StatusCode.ERROR, type(e).__name__))  # type: ignore[index]
            span.end()
        raise
    ms = (time.perf_counter() - start) * 1000
    figures = summarize(result) if summarize else {}
    _record("graphmem.operation.duration", ms, {"tenant": tenant, "op": op, "outcome": "ok"}, "ms")
    _metrics(op, tenant, figures)
    fields = {"tenant": tenant, "duration_ms": round(ms, 3), **(attrs or {}), **figures}
    emit(op, fields, logging.WARNING if figures.get("failed_legs") else logging.INFO)
    if span is not None:
        span.set_attributes(_plain({f"graphmem.{k}": v for k, v in fields.items() if k != "tenant"}))
        span.end()
    return result


def mapped(plan: Generator[Any, Any, T], fn: Callable[[T], U]) -> Generator[Any, Any, U]:
    """``plan`` with ``fn`` applied to its result (sync and async runners alike)."""
    result = yield from plan
    return fn(result)


def extraction_yield(tenant: str, where: str, messages: int, facts: int, duration_ms: float | None = None) -> None:
    """Extraction yield: messages in, facts (events) out."""
    attrs = {"tenant": tenant}
    _count("graphmem.extraction.messages", messages, attrs)
    _count("graphmem.extraction.facts", facts, attrs)
    emit("extraction", {"tenant": tenant, "where": where, "messages": messages, "facts": facts,
                        "duration_ms": round(duration_ms, 3) if duration_ms is not None else None})


def working_add(tenant: str, session: str, result: Any) -> None:
    """A working-memory add: tokens in use vs budget, evictions, the 80% warning."""
    attrs = {"tenant": tenant}
    _record("graphmem.working.tokens_used", result.used_tokens, attrs, "{token}")
    _count("graphmem.working.evicted", len(result.evicted) + (len(result.summary.cites) if result.summary else 0),
           attrs)
    emit("working.add", {"tenant": tenant, "session": session, "item": result.item.id,
                         "used_tokens": result.used_tokens, "budget_tokens": result.budget_tokens,
                         "evicted": len(result.evicted), "summary": result.summary.id if result.summary else None,
                         "warning": result.warning, "duplicate": result.duplicate},
         logging.WARNING if result.warning else logging.INFO)
