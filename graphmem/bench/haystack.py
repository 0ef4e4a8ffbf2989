"""A synthetic LongMemEval-style haystack: long assistant turns between short user turns, seeded.

LongMemEval's haystacks (sessions of ~500 turns where the assistant writes long answers — lists,
code, explanations — and the user, now and then, says something about themself) are not shipped
and not available offline. :func:`haystack` makes a conversation of that shape from a seed, so an
ingest benchmark is the same text on every run and every machine: ``graphmem bench haystack``
(:func:`graphmem.bench.bench_recall.run_haystack`) ingests it and times each stage.

What it is, and is not: the assistant turns are 150-400 words assembled from templates (a
numbered or bulleted list, a fenced code block, paragraphs of explanation), so their length, their
punctuation and their mix of prose and code are LongMemEval's; their words are not real answers.
About one user turn in six states a fact about the user ("I work as a nurse at St. Mary's", "I
moved to Lisbon last spring"); the rest are questions and requests. Rows are chat rows
(``{"role", "content", "name"?, "created_at"}``), the shape ``mem.ingest_bulk`` and ``mem.add``
take from agent frameworks (docs/transcripts.md).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Any

__all__ = ["haystack", "words"]

_TOPICS = ["sourdough bread", "a trip to Japan", "marathon training", "a Python web scraper", "home budgeting",
           "learning Spanish", "container gardening", "a job interview", "a used car", "a birthday party",
           "sleep hygiene", "a React dashboard", "the French Revolution", "a cover letter", "a vegan menu",
           "a small aquarium", "a PostgreSQL index", "public speaking", "a hiking route", "a podcast launch"]
_VERBS = ["consider", "start with", "keep track of", "avoid", "prioritise", "compare", "measure", "review",
          "plan for", "experiment with", "write down", "schedule", "test", "simplify", "document"]
_NOUNS = ["the basics", "your goals", "a realistic timeline", "the trade-offs", "common mistakes", "the budget",
          "a checklist", "the first draft", "small wins", "the main constraints", "feedback", "a backup plan",
          "the long-term costs", "your current routine", "the key metrics", "the edge cases"]
_ADJ = ["simple", "practical", "flexible", "reliable", "gradual", "consistent", "affordable", "clear", "robust",
        "lightweight", "structured", "balanced"]
_OPENERS = ["Great question!", "Sure, here is an overview.", "Happy to help with that.",
            "Here is a step-by-step approach.", "That is a common challenge.", "Let me break this down."]
_CLOSERS = ["Let me know if you want me to go deeper into any of these points.",
            "I hope this helps, and feel free to ask follow-up questions.",
            "If you share more details, I can tailor the plan further.",
            "Would you like a printable version of this checklist?"]
_EXPLAIN = ["The most important thing is to {v} {n} before you commit to anything, because it keeps the {a} "
            "parts of the plan visible.",
            "Many people find it helpful to {v} {n} every week; a {a} routine beats an ambitious one.",
            "In practice, it is easier to {v} {n} when the steps are {a} and written down.",
            "You should also {v} {n}, since that is where most projects about {t} go wrong.",
            "A {a} approach is to {v} {n} first and only then {v2} {n2}.",
            "Research on {t} suggests that people who {v} {n} tend to stay motivated for longer.",
            "Keep in mind that every situation is different, so {v} {n} and adjust as you learn."]
_CODE = [["def {f}(items):", "    result = []", "    for item in items:", "        if item.get('{k}'):",
          "            result.append(item['{k}'])", "    return sorted(result)"],
         ["import requests", "", "def {f}(url, timeout=10):", "    response = requests.get(url, timeout=timeout)",
          "    response.raise_for_status()", "    return response.json().get('{k}', [])"],
         ["SELECT {k}, COUNT(*) AS n", "FROM events", "WHERE created_at > NOW() - INTERVAL '7 days'",
          "GROUP BY {k}", "ORDER BY n DESC;"],
         ["const {f} = (rows) => rows", "  .filter((r) => r.{k} !== undefined)", "  .map((r) => ({{ ...r, "
          "{k}: Number(r.{k}) }}));"]]
_FACTS = ["I work as a {job} at {org}.", "I moved to {city} last {season}.", "My sister {name} lives in {city}.",
          "I'm allergic to {allergen}.", "I've been vegetarian for {years} years.", "My dog is called {pet}.",
          "I started a new job at {org} on Monday.", "My favourite band is {band}.",
          "I went to a pottery class last weekend.", "I'm training for a half marathon in {month}."]
_ASKS = ["Can you help me with {t}?", "What do you think about {t}?", "Could you give me a short plan for {t}?",
         "Thanks! Can you make it shorter?", "How long would that take?", "What would you change for a beginner?",
         "Can you show me an example?", "ok", "That makes sense.", "What are the risks with {t}?",
         "Could you explain the second point again?", "Any tips on {t} for someone busy?"]
_FILL = {"job": ["nurse", "teacher", "data analyst", "carpenter", "pharmacist", "product designer"],
         "org": ["St. Mary's Hospital", "Contoso", "Globex", "the city library", "Initech", "a small bakery"],
         "city": ["Lisbon", "Denver", "Osaka", "Nairobi", "Toronto", "Valencia"],
         "season": ["spring", "summer", "autumn", "winter"], "name": ["Ana", "Priya", "Lena", "Maya", "Zoe"],
         "allergen": ["peanuts", "latex", "shellfish", "penicillin"], "years": ["two", "three", "five", "ten"],
         "pet": ["Biscuit", "Luna", "Pepper", "Rocket"], "band": ["Radiohead", "ABBA", "Khruangbin"],
         "month": ["March", "June", "October"]}


def words(text: str) -> int:
    return len(text.split())


def _fill(rng: random.Random, template: str, topic: str) -> str:
    values = {k: rng.choice(v) for k, v in _FILL.items()}
    return template.format(t=topic, v=rng.choice(_VERBS), n=rng.choice(_NOUNS), a=rng.choice(_ADJ),
                           v2=rng.choice(_VERBS), n2=rng.choice(_NOUNS), **values)


def _assistant(rng: random.Random, topic: str) -> str:
    """One long answer of 150-400 words: an opener, paragraphs, a list and often a code block."""
    target = rng.randint(150, 400)
    parts = [rng.choice(_OPENERS)]
    kinds = ["list", "prose"] + (["code"] if rng.random() < 0.4 else [])
    rng.shuffle(kinds)
    for kind in kinds:
        if kind == "prose":
            parts.append(" ".join(_fill(rng, rng.choice(_EXPLAIN), topic) for _ in range(rng.randint(2, 4))))
        elif kind == "list":
            numbered = rng.random() < 0.5
            items = [f"{i + 1}. " if numbered else "- " for i in range(rng.randint(3, 7))]
            parts.append("\n".join(f"{mark}**{rng.choice(_NOUNS).capitalize()}**: "
                                   + _fill(rng, rng.choice(_EXPLAIN), topic) for mark in items))
        else:
            code = rng.choice(_CODE)
            f, k = rng.choice(["load_rows", "collect", "summarise", "fetch_all"]), rng.choice(["name", "price", "user_id"])
            parts.append("Here is an example:\n```\n" + "\n".join(line.format(f=f, k=k) for line in code) + "\n```")
    while words("\n\n".join(parts)) < target:
        parts.append(_fill(rng, rng.choice(_EXPLAIN), topic))
    parts.append(rng.choice(_CLOSERS))
    text = "\n\n".join(parts)
    return " ".join(text.split(" ")[:400]) if words(text) > 400 else text


def haystack(turns: int = 500, *, seed: int = 47, user: str = "maya", sessions: int = 1,
             start: datetime = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)) -> list[dict[str, Any]]:
    """``turns`` chat rows, user and assistant alternating (the user first), over ``sessions``
    sessions a day apart; the same rows for the same arguments. A user turn states a fact about
    ``user`` about one time in six; every assistant turn is 150-400 words."""
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    per = -(-turns // sessions)
    topic = rng.choice(_TOPICS)
    for i in range(turns):
        s, k = divmod(i, per)
        at = start + timedelta(days=s, seconds=30 * k)
        if i % 2 == 0:
            if rng.random() < 0.15:
                topic = rng.choice(_TOPICS)
            text = _fill(rng, rng.choice(_FACTS if rng.random() < 1 / 6 else _ASKS), topic)
            rows.append({"role": "user", "name": user, "content": text, "created_at": at.isoformat(),
                         "session": f"s{s + 1}"})
        else:
            rows.append({"role": "assistant", "content": _assistant(rng, topic), "created_at": at.isoformat(),
                         "session": f"s{s + 1}"})
    return rows
