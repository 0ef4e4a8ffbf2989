"""``graphmem eval``: run docs/format.md scenario files against the store and count honestly.

Each scenario runs in a fresh tenant (the scenario's tenant names, prefixed with a run id), its
events are applied in order (an event with ``expect_error`` must be refused), then its queries
are compared with what they expect. Fresh tenants are deleted afterwards unless ``keep=True``.

With ``recall=True`` (``graphmem eval --recall``) every ``as_of`` query is also asked through
``context()`` — the way an agent reads — and what the context shows for that slot must be what
``as_of`` answers (value, values or conflict, and the source): "recall agreement".
"""

from __future__ import annotations

import asyncio
import inspect
import json
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import GraphMemError
from ..store.ops import history_values

__all__ = ["EvalReport", "Failure", "Score", "run_files", "run_files_async", "run_scenarios", "run_scenarios_async"]


async def _v(result: Any) -> Any:
    """The same harness drives the sync and the async client: await what needs awaiting."""
    return await result if inspect.isawaitable(result) else result

# Built-in vocabulary (docs/format.md): literal values compare case-insensitively, ignoring a leading
# "the" and trailing punctuation.
LOOSE_TOPICS = {"home_address", "home_city", "trip_city", "trip_lodging", "employer", "office", "diet",
                "allergy", "reply_language", "report_language", "network", "port"}


@dataclass
class Failure:
    scenario: str
    index: int
    what: str
    expected: Any
    got: Any

    def line(self) -> str:
        return (f"FAIL {self.scenario} #{self.index} {self.what}: expected "
                f"{json.dumps(self.expected, ensure_ascii=False, default=str)} got "
                f"{json.dumps(self.got, ensure_ascii=False, default=str)}")


@dataclass
class Score:
    """One accuracy of an evaluation: ``ok`` right out of ``total`` counted."""

    ok: int = 0
    total: int = 0

    def count(self, right: bool) -> None:
        self.total += 1
        self.ok += right

    def text(self) -> str:
        return f"{self.ok}/{self.total} ({100.0 * self.ok / self.total:.1f}%)" if self.total else "0/0 (n/a)"


@dataclass
class EvalReport:
    """What a run counted: queries passed and failed, and three accuracies — current facts
    (as_of and path), provenance (queries that expect a source) and, with ``recall``, recall agreement."""

    passed: int = 0
    failed: int = 0
    current: Score = field(default_factory=Score)
    provenance: Score = field(default_factory=Score)
    recall: Score = field(default_factory=Score)
    failures: list[Failure] = field(default_factory=list)

    def fail(self, failure: Failure) -> None:
        self.failed += 1
        self.failures.append(failure)

    def summary_lines(self) -> list[str]:
        return [f"{self.passed} passed, {self.failed} failed",
                f"current-fact accuracy: {self.current.text()}",
                f"provenance accuracy: {self.provenance.text()}"] + \
            ([f"recall agreement: {self.recall.text()}"] if self.recall.total else [])

    def to_json(self) -> dict[str, Any]:
        return {"passed": self.passed, "failed": self.failed,
                "current_fact_accuracy": [self.current.ok, self.current.total],
                "provenance_accuracy": [self.provenance.ok, self.provenance.total],
                "recall_agreement": [self.recall.ok, self.recall.total],
                "failures": [f.__dict__ for f in self.failures]}


def _norm(value: Any, topic: str | None) -> Any:
    if value is None:
        return None
    text = str(value).strip()
    if topic in LOOSE_TOPICS:
        text = re.sub(r"^the\s+", "", text, flags=re.IGNORECASE)
        text = re.sub(r"[\s.,;:!?。，；：！？]+$", "", text).lower()
    return text


def _compare(q: dict[str, Any], got: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """The keys of ``expect`` that differ, as (key, expected, got)."""
    topic = q.get("topic") or (q.get("path") or [None])[-1]
    bad = []
    for key, want in q["expect"].items():
        have = got.get(key)
        if key in ("values", "conflict") and q["q"] == "as_of" or key == "conflict":
            ok = want is not None and have is not None and \
                sorted(_norm(v, topic) for v in want) == sorted(_norm(v, topic) for v in have)
            ok = ok or (want is None and have is None)
        elif key == "values":  # history: in order
            ok = have is not None and [_norm(v, topic) for v in want] == [_norm(v, topic) for v in have]
        elif key in ("source", "supersedes_source"):
            ok = want == have
        else:
            ok = _norm(want, topic) == _norm(have, topic)
        if not ok:
            bad.append((key, want, have))
    return bad


async def _ask(store: Any, q: dict[str, Any]) -> dict[str, Any]:
    kind = q["q"]
    if kind == "as_of":
        a = await _v(store.as_of(q["subject"], q["topic"], valid_at=q.get("valid_at"), known_at=q.get("known_at"),
                                 env=q.get("env"), session=q.get("session"),
                                 include_candidates=bool(q.get("include_candidates"))))
        out: dict[str, Any] = {"source": a.source}
        if a.conflict:
            out["conflict"] = a.conflict
            out["value"] = a.conflict
        elif a.values is not None:
            out["values"] = a.values
        else:
            out["value"] = a.value
        return out
    if kind == "history":
        entries = await _v(store.history(q["subject"], q["topic"], env=q.get("env"), known_at=q.get("known_at")))
        return {"values": history_values(entries)}
    if kind == "why":
        w = await _v(store.why(q["subject"], q["topic"], valid_at=q.get("valid_at"), known_at=q.get("known_at"),
                               env=q.get("env")))
        return {"source": w.source, "supersedes_source": w.supersedes_source}
    if kind == "path":
        a = await _v(store.path(q["start"], q["path"], valid_at=q.get("valid_at"), known_at=q.get("known_at"),
                                env=q.get("env")))
        return {"value": a.conflict if a.conflict else a.value, "source": a.source}
    raise GraphMemError(f"unknown query kind {kind!r}")


async def _recall(store: Any, q: dict[str, Any]) -> tuple[Any, Any] | None:
    """None when context() shows for the slot exactly what as_of answers; else (as_of, context)."""
    kw = {k: q[k] for k in ("valid_at", "known_at", "env", "session") if q.get(k)}
    kw["include_candidates"] = bool(q.get("include_candidates"))
    a = await _v(store.as_of(q["subject"], q["topic"], **kw))
    ctx = await _v(store.context(f"{q['topic']} of {q['subject']}", subject=q["subject"], budget_tokens=50_000,
                                 limit=200, summary=False, playbooks=False, **kw))
    items = [i for i in ctx.items if i.kind in ("fact", "conflict") and i.subject == q["subject"] and i.topic == q["topic"]
             and i.env == (q.get("env") or "")]
    if a.conflict:
        want: Any = sorted(a.conflict)
        got: Any = sorted(items[0].conflict or []) if len(items) == 1 and items[0].kind == "conflict" \
            else [i.value for i in items]
    elif a.values is not None:
        want, got = sorted(a.values), sorted(i.value for i in items)
    else:
        want, got = ([] if a.value is None else [a.value]), [i.value for i in items]
    sources = sorted({i.source.id for i in items if i.source})
    if got == want and not (a.source and a.value is not None and a.source not in sources):
        return None
    return {"as_of": want, "source": a.source}, {"context": got, "sources": sources}


class _Scenario:
    """One scenario's run: its tenants (fresh, named with a run id) and the report it counts into."""

    def __init__(self, store: Any, sc: dict[str, Any], report: EvalReport) -> None:
        self.store, self.sc, self.report = store, sc, report
        self.run_id = uuid.uuid4().hex[:8]
        self.used: set[str] = set()

    def tenant(self, name: str | None) -> Any:
        real = f"eval-{self.run_id}-{name or self.sc.get('tenant', 'default')}"
        self.used.add(real)
        return self.store.for_tenant(real)

    async def apply_events(self) -> None:
        """Declare the topics, apply the events in order; an event with ``expect_error`` must be refused."""
        for name, spec in (self.sc.get("topics") or {}).items():
            await _v(self.tenant(None).declare_topic(name, spec.get("cardinality", "one")))
        for i, ev in enumerate(self.sc.get("events", [])):
            ev = dict(ev)
            target = self.tenant(ev.pop("tenant", None))
            expect_error = bool(ev.pop("expect_error", False))
            try:
                await _v(target.apply(ev))
                err = None
            except GraphMemError as e:
                err = e
            if expect_error and err is None:
                self.report.fail(Failure(self.sc["id"], i, f"event {ev.get('op')}", "an error", "accepted"))
            elif not expect_error and err is not None:
                self.report.fail(Failure(self.sc["id"], i, f"event {ev.get('op')}", "accepted",
                                         f"{type(err).__name__}: {err}"))

    async def ask(self, i: int, q: dict[str, Any], recall: bool) -> None:
        """One query compared with what it expects (and, with ``recall``, an as_of read through context())."""
        report, target = self.report, self.tenant(q.get("tenant"))
        try:
            got = await _ask(target, q)
            bad = _compare(q, got)
        except GraphMemError as e:
            got, bad = {"error": f"{type(e).__name__}: {e}"}, [("error", q["expect"], str(e))]
        value_keys = {"value", "values", "conflict"}
        if q["q"] in ("as_of", "path"):
            report.current.count(not any(k in value_keys or k == "error" for k, _, _ in bad))
        if "source" in q["expect"]:
            report.provenance.count(not any(k in ("source", "error") for k, _, _ in bad))
        if bad:
            desc = f"{q['q']} {q.get('subject') or q.get('start')}/{q.get('topic') or q.get('path')}"
            extras = {k: q[k] for k in ("valid_at", "known_at", "env", "session") if k in q}
            if extras:
                desc += " " + json.dumps(extras)
            report.fail(Failure(self.sc["id"], i, desc, q["expect"], got))
        else:
            report.passed += 1
        if recall and q["q"] == "as_of":
            await self.agree(i, q, target)

    async def agree(self, i: int, q: dict[str, Any], target: Any) -> None:
        """Recall agreement: context() shows for the slot what as_of answers."""
        try:
            differs = await _recall(target, q)
        except GraphMemError as e:
            differs = ({"as_of": "an answer"}, {"error": f"{type(e).__name__}: {e}"})
        self.report.recall.count(differs is None)
        if differs is not None:
            self.report.fail(Failure(self.sc["id"], i, f"recall {q['subject']}/{q['topic']}", *differs))

    async def drop(self) -> None:
        for real in self.used:
            await _v(self.store.for_tenant(real).drop_tenant())


async def run_scenarios_async(store: Any, scenarios: list[dict[str, Any]], report: EvalReport | None = None,
                              keep: bool = False, recall: bool = False) -> EvalReport:
    """Run scenarios through ``store`` — a GraphMem or an AsyncGraphMem."""
    report = report or EvalReport()
    for sc in scenarios:
        run = _Scenario(store, sc, report)
        await run.apply_events()
        for i, q in enumerate(sc.get("queries", [])):
            await run.ask(i, q, recall)
        if not keep:
            await run.drop()
    return report


def run_scenarios(store: Any, scenarios: list[dict[str, Any]], report: EvalReport | None = None,
                  keep: bool = False, recall: bool = False) -> EvalReport:
    """Run scenarios through a sync GraphMem (from code that is not inside an event loop)."""
    return asyncio.run(run_scenarios_async(store, scenarios, report, keep, recall))


def _load(paths: list[str | Path]) -> list[dict[str, Any]]:
    scenarios: list[dict[str, Any]] = []
    for p in paths:
        scenarios.extend(json.loads(Path(p).read_text(encoding="utf-8")))
    return scenarios


def run_files(store: Any, paths: list[str | Path], keep: bool = False, recall: bool = False) -> EvalReport:
    return run_scenarios(store, _load(paths), keep=keep, recall=recall)


async def run_files_async(store: Any, paths: list[str | Path], keep: bool = False,
                          recall: bool = False) -> EvalReport:
    return await run_scenarios_async(store, _load(paths), keep=keep, recall=recall)
