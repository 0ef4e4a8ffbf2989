"""Open-vocabulary statements of a sentence (:mod:`.openvocab`, :mod:`.personal`), through the
same gates as the vocabulary's: L2 candidates unless their topic is declared.

Kept apart from :mod:`.statements` (the built-in topics' sets, revokes and corrections) so each
stays one concept.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..core.models import MessageEvent
from .base import OPEN_CUE_EN, OPEN_CUE_ZH, Found
from .gates import Verdict, judge_en, judge_zh
from .openvocab import OpenFound, open_en, open_zh
from .personal import PERSONAL_CUE_EN, PERSONAL_CUE_ZH, personal_en, personal_zh
from .values import clean
from .vocabulary import Vocabulary

__all__ = ["open_statements"]


def open_statements(vocabulary: Vocabulary, m: MessageEvent, sentence: str, offset: int, lang: str, span: Any,
                    found: list[tuple[Found, str | None]]) -> Iterable[dict[str, Any]]:
    """Open-vocabulary statements (openvocab.py), through the same gates; L2 candidates unless
    their topic is declared."""
    cfg = vocabulary.open
    hits: list[tuple[OpenFound, int | None]]
    if lang == "en":
        if span is None or not span.doc.has_annotation("DEP"):
            return
        hits = [(o, None) for o in open_en(span, cfg)] if OPEN_CUE_EN.search(sentence) else []
        if PERSONAL_CUE_EN.search(sentence):
            hits += [(o, None) for o in personal_en(span, cfg)]
    else:
        hits = [(OpenFound(o.topic, o.value, (offset + o.span[0], offset + o.span[1]), o.declared, o.gated), cue)
                for o, cue in (open_zh(sentence, cfg) if OPEN_CUE_ZH.search(sentence) else [])
                + (personal_zh(sentence, cfg) if PERSONAL_CUE_ZH.search(sentence) else [])]
    taken = [(offset + f.span[0], offset + f.span[1]) for f, _ in found]
    jobs = {w.lower() for w in cfg.get("occupations", {}).get(lang, [])}
    for o, cue in hits:
        a, b = o.span
        value = clean(m.text[a:b], lang, None, False)
        if not value or o.topic in vocabulary.topics or any(a < y and x < b for x, y in taken):
            continue
        if o.gated:
            taken.append((a, b))  # "I have a dog named Max": dog_name (openvocab.py) is drawn once
        if o.topic == "occupation" and value.lower().split()[-1] not in jobs and value not in jobs:
            continue
        if not o.gated:
            taken.append((a, b))
        b = a + m.text[a:b].find(value) + len(value)
        a = b - len(value)
        if o.gated:
            verdict = Verdict(True)
        elif lang == "en":
            verdict = judge_en(span, a, b, o.topic, False, False)
        else:
            verdict = judge_zh(sentence, cue or 0, a - offset, b - offset, o.topic, False, False)
        if not verdict.ok or verdict.negated:
            continue
        event: dict[str, Any] = {"op": "set", "subject": m.speaker if verdict.subject in (None, "@speaker")
                                 else verdict.subject, "topic": o.topic, "value": value, "source": m.id,
                                 "authority": "L1" if o.declared else "L2",
                                 "confidence": 0.85 if o.declared else 0.6,
                                 "evidence": f"[{a}:{b}] {sentence.strip()}"}
        if not o.declared:
            event["status"] = "candidate"
        yield event

