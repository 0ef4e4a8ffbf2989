"""A trip told in the future is not the current trip (issue #43, LoCoMo): "I'm going to Paris
next summer" said in March must not make ``trip_city = Paris`` true from March on.

The statement rules draw a plan topic (``trip_city``, ``trip_lodging``) from a sentence that gives a
future date or range, and :meth:`.rules.RuleExtractor._date_plans` dates it when another
sentence names the day. What is left without a ``valid_from`` but told in the future ("going to",
"will", "next …", "planning") is a plan whose start the fact does not carry: it is dated here from
the first time ahead the sentence names (a season, a month, a day), or dropped when the sentence
names none — an undated plan read as now would be a wrong current fact.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .episode_time import ahead_of
from .episode_words import FUTURE
from .gates import PLAN_TOPICS

__all__ = ["date_future_trips"]


def _sentence_of(event: dict[str, Any]) -> str:
    evidence = str(event.get("evidence", ""))
    return evidence.split("] ", 1)[1] if evidence.startswith("[") and "] " in evidence else evidence


def date_future_trips(events: list[dict[str, Any]], at: datetime) -> list[dict[str, Any]]:
    """``events`` with each undated future trip dated from its sentence's time ahead, or left out."""
    out = []
    for e in events:
        if e.get("op") != "set" or e.get("topic") not in PLAN_TOPICS or "valid_from" in e:
            out.append(e)
            continue
        sentence = _sentence_of(e)
        if not FUTURE.search(sentence):
            out.append(e)  # "I'm in Chicago for a conference until Oct 2": a trip going on now
            continue
        ahead = ahead_of(sentence, at)
        if ahead is None:
            continue  # "I'm going to Paris someday": no time, no current fact
        e = dict(e, valid_from=ahead[0].isoformat())
        if "valid_to" not in e:
            e["valid_to"] = ahead[1].isoformat()
        out.append(e)
    return out
