"""Issue #46 item 5: every number that orders recall's facts is a RecallConfig knob, and the
ranking code reads it from the config it is handed (no module-level ranking constant left)."""

from __future__ import annotations

import ast
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

import graphmem
from graphmem.recall.fact_legs import fact_candidates, quoted_items, with_overlays
from graphmem.recall.items import weigh
from graphmem.recall.memory_context import ContextItem, ItemWarning
from graphmem.recall.recall_config import RecallConfig, recall_config
from graphmem.recall.terms import analyse

NOW = datetime(2026, 10, 5, tzinfo=timezone.utc)
RANKING = ("fact_legs.py", "items.py", "search.py", "episodic.py", "recall.py")


def _calls(plan: Any, answer: Any) -> tuple[list[Any], Any]:
    """Drive a plan: every query call it yields is answered by ``answer(call)``; the calls and its result."""
    calls: list[Any] = []
    try:
        step = next(plan)
        while True:
            calls.append(step)
            step = plan.send(answer(step))
    except StopIteration as done:
        return calls, done.value


def test_the_fact_query_gets_its_ranking_parameters_from_the_config():
    cfg = recall_config(None, fact_rrf_k=7, fact_leg_weights={"graph": 0.1, "topic": 2.0, "text": 3.0, "vector": 0.0},
                        hops=1, limit=9)
    calls, _ = _calls(fact_candidates("t", analyse("where does lin live"), "lin", [""], NOW, NOW, [], cfg),
                      lambda call: [])
    (call,) = calls
    assert call.params["rrf_k"] == 7 and call.params["k"] == 9 and call.params["hops"] == 1
    assert call.params["weights"] == {"graph": 0.1, "topic": 2.0, "text": 3.0, "vector": 0.0}
    default, _ = _calls(fact_candidates("t", analyse("x"), None, [""], NOW, NOW, [], RecallConfig()), lambda c: [])
    assert default[0].params["rrf_k"] == 60


def _item(**kw: Any) -> ContextItem:
    return ContextItem(kind="fact", subject="lin", topic=kw.pop("topic", "home"), score=kw.pop("score", 1.0), **kw)


@pytest.mark.parametrize("knob, value, item, expected", [
    ("authority_weights", {"L0": 2.0}, dict(authority="L0"), 2.0),
    ("authority_weights", {"L2": 0.25}, dict(authority="L2"), 0.25),
    ("status_weights", {"candidate": 0.1}, dict(status="candidate"), 0.1),
    ("confidence_floor", 0.0, dict(confidence=0.5), 0.5),
    ("stale_weight", 0.3, dict(warnings=[ItemWarning(kind="stale", message="old")]), 0.3),
])
def test_weighing_reads_its_factors_from_the_config(knob: str, value: Any, item: dict[str, Any], expected: float):
    assert weigh(_item(**item), recall_config(None, **{knob: value})) == pytest.approx(expected)


def test_a_knob_changes_the_order():
    """With the defaults an L0 fact of confidence 0.6 (1.3 x 0.8) outranks a confirmed L1 one (1.0);
    lowering the session's weight turns the order round."""
    l0, l1 = _item(topic="a", authority="L0", confidence=0.6), _item(topic="b", authority="L1")

    def order(cfg: RecallConfig) -> list[str]:
        return [i.topic for i in sorted([l1, l0], key=lambda i: -weigh(i, cfg))]
    assert order(RecallConfig()) == ["a", "b"]
    assert order(recall_config(None, authority_weights={"L0": 1.0, "L1": 1.0, "L2": 0.6})) == ["b", "a"]


def test_quoted_and_overlay_scores_come_from_the_config():
    cur = _item(value="河湾路", fact="f1", score=0.4)
    row = {"subject": "lin", "topic": "home", "env": "", "fact": "f0", "value": "old road", "valid_from": None,
           "version": 1, "source": "d1", "source_at": None, "quoted_at": None, "quoted_in": "m9"}
    _, out = _calls(quoted_items("t", [cur], NOW, NOW, recall_config(None, quoted_weight=0.25)), lambda c: [row])
    assert [q.score for q in out] == [pytest.approx(0.1)]
    # an overlay slot with no fused item of its own scores one first-ranked hit: 1 / (fact_rrf_k + 1)
    overlay = {"subject": "lin", "topic": "home", "env": ""}

    def answer(call: Any) -> list[dict[str, Any]]:
        return [overlay] if call.query == "recall/overlays" else []
    _, kept = _calls(with_overlays("t", NOW, [], "lin", [""], NOW, NOW, "s1", False,
                                   recall_config(None, fact_rrf_k=9)), answer)
    assert all(i.score == pytest.approx(0.1) for i in kept)


def test_no_ranking_constant_is_left_at_module_level():
    """A module-level number (or a dict of numbers) in the ranking modules would be a knob outside
    RecallConfig. Sizes and limits that do not order anything are named here, with why."""
    not_ranking = {"MAX_LIMIT", "EPISODE_PEOPLE", "EPISODE_READ"}  # search(): how much it reads, not how it orders
    root = Path(graphmem.__file__).parent / "recall"
    found = []
    for name in RANKING:
        for node in ast.parse((root / name).read_text(encoding="utf-8")).body:
            target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
            value = getattr(node, "value", None)
            if not isinstance(target, ast.Name) or value is None or target.id in not_ranking:
                continue
            numbers = [n for n in ast.walk(value) if isinstance(n, ast.Constant) and type(n.value) in (int, float)]
            if numbers:
                found.append(f"{name}: {target.id}")
    assert found == []


def test_every_knob_says_why():
    assert all(f.description for f in RecallConfig.model_fields.values())
