"""The (topic, value) pairs a rule extractor sets from one message of "ana" — what the English
wording tests compare."""

from __future__ import annotations

from datetime import datetime
from typing import Sequence

from graphmem.core.models import MessageEvent
from graphmem.extract import RuleExtractor
from graphmem.extract.rules import PriorFact


def set_pairs(ex: RuleExtractor, text: str, at: datetime, context: Sequence[PriorFact] = ()) -> list[tuple[str, str]]:
    """The ``set`` events of ``text`` said by ana at ``at``, as (topic, value)."""
    m = MessageEvent(op="message", id="m1", at=at, speaker="ana", text=text)
    return [(e["topic"], e["value"]) for e in ex.extract(m, list(context)) if e["op"] == "set"]
