"""The prefilter only spares parses: with it and without it the extractor draws the same events.

Every labelled extraction set and the example chat messages are run through ``draw`` (facts and
episodes) twice: as shipped, and with the prefilter answering yes to every turn (each is parsed
and every rule runs). A turn the prefilter skips that a rule would have drawn from fails here.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from graphmem.core.models import MessageEvent
from graphmem.extract import RuleExtractor
from graphmem.extract import prefilter
from graphmem.extract.base import PriorFact
from graphmem.extract.score import load

DATA = Path(__file__).parent.parent / "data" / "extraction"
EXAMPLES = Path(__file__).parent.parent.parent / "graphmem" / "examples" / "messages.json"


def _time(v: str) -> datetime:
    t = datetime.fromisoformat(v.replace("Z", "+00:00"))
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


def _cases() -> list[tuple[MessageEvent, list[PriorFact]]]:
    out: list[tuple[MessageEvent, list[PriorFact]]] = []
    for path in sorted(DATA.glob("*.jsonl")):
        for i, r in enumerate(load(path)):
            role = r.get("role") or "user"
            m = MessageEvent(op="message", id=f"{path.stem}-{i}", at=_time(r["at"]),
                             speaker=r.get("speaker", "lin") if role == "user" else role, text=r["text"],
                             about=r.get("about"), session=r.get("session"),
                             drawn_as="stated" if role == "user" else "inferred")
            ctx = [PriorFact(uid=p["uid"], subject=p.get("subject", m.speaker), topic=p["topic"],
                             env=p.get("env"), value=p["value"], valid_from=_time(p["valid_from"]),
                             valid_to=_time(p["valid_to"]) if p.get("valid_to") else None,
                             author=p.get("subject", m.speaker), seq=p.get("seq", 1))
                   for p in r.get("context", [])]
            out.append((m, ctx))
    for scenario in json.loads(EXAMPLES.read_text(encoding="utf-8")):
        for e in scenario.get("events", []):
            if e.get("op") == "message" and isinstance(e.get("text"), str):
                out.append((MessageEvent(op="message", id=e["id"], at=_time(e["at"]),
                                         speaker=e.get("speaker", "lin"), text=e["text"]), []))
    return out


class _Unfiltered(RuleExtractor):
    """Every turn may draw: each is parsed and every rule runs."""

    def _may_draw_uncached(self, text: str, lang: str) -> bool:
        return True


def _draw_all(ex: RuleExtractor, cases: list[tuple[MessageEvent, list[PriorFact]]]) -> list[Any]:
    return [ex.draw(m, ctx) for m, ctx in cases]


def test_the_prefilter_changes_no_event(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = _cases()
    assert len(cases) > 1900
    shipped = _draw_all(RuleExtractor(), cases)
    monkeypatch.setattr(prefilter, "may_episode", lambda text, lang: True)
    unfiltered = _draw_all(_Unfiltered(), cases)
    diff = [(m.text, a, b) for (m, _), a, b in zip(cases, shipped, unfiltered) if a != b]
    assert not diff, diff[:5]


def test_the_prefilter_skips_plain_chat() -> None:
    ex = RuleExtractor()
    assert not ex._may_draw("haha that sounds fun, see you tomorrow", "en")
    assert ex._may_draw("I moved to Suzhou on March 1.", "en")


def test_the_cues_are_one_pattern_over_the_rules_constants() -> None:
    for lang in ("en", "zh"):
        combined = prefilter.cue_pattern(lang)
        for cue in prefilter.FACT_CUES[lang]:
            assert cue.pattern.replace("?P<", "") in combined.pattern.replace("?P<", "") or "(?P<" in cue.pattern
