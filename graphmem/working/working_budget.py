"""The working-memory budget, as pure functions: what an added item costs, when to warn, and what
to evict or compress so a session never holds more than its budget (no I/O, no model).

Two strategies (:class:`~graphmem.working.working.WorkingPolicy`):

* ``evict`` — drop the lowest-importance items first, the least recently used first among equals;
* ``compress`` — replace a run of older turns (and earlier summaries) by one extractive summary item
  that cites every item it replaced; if that is not enough, evict as above.

The newest ``keep_recent`` turns and the item being added are never compressed; an item larger than
the whole budget is refused by the caller before anything is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, Sequence

from ..recall.budget import count_tokens

__all__ = ["Decision", "decide", "item_tokens", "summarize"]

_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")
SUMMARY_HEAD = "Summary of {n} earlier items"
MAX_WORDS = 14


class _Item(Protocol):
    id: str
    type: str
    author: str | None
    text: str
    importance: float
    tokens: int
    seq: int
    last_used_at: datetime | None
    covers: list[str]


def item_tokens(type_: str, author: str | None, text: str) -> int:
    """What an item costs: its text as context() renders it, one line with its type and author."""
    return count_tokens(f"- [{type_}] {author or ''}: {text}")


def _first_sentence(text: str) -> str:
    first = _SENTENCE.split(" ".join(text.split()), maxsplit=1)[0]
    words = first.split(" ")
    return " ".join(words[:MAX_WORDS]) + (" …" if len(words) > MAX_WORDS else "")


def _lines(item: _Item) -> list[str]:
    if item.type == "summary":  # an earlier summary: keep its lines, not its heading
        return [ln[2:] for ln in item.text.splitlines() if ln.startswith("- ")]
    return [f"{item.author or '?'}: {_first_sentence(item.text)}"]


def summarize(items: Sequence[_Item], cap_tokens: int) -> str:
    """An extractive summary of ``items`` (oldest first): the first sentence of each, newest kept
    when the cap forces a cut. Deterministic; no model."""
    lines = [ln for it in items for ln in _lines(it)]
    n = sum(len(it.covers or [it.id]) if it.type == "summary" else 1 for it in items)
    head = SUMMARY_HEAD.format(n=n) + ":"
    kept: list[str] = []
    used = item_tokens("summary", "graphmem", head)
    for ln in reversed(lines):
        cost = count_tokens("\n- " + ln)
        if used + cost > cap_tokens:
            break
        kept.append(ln)
        used += cost
    return "\n".join([head] + [f"- {ln}" for ln in reversed(kept)])


@dataclass
class Decision:
    """What adding one item does to the session: tokens before and after, a warning at the
    policy's threshold, the items evicted, and the summary (text, the ids it replaces), if any."""

    used_with_new: int
    used_after: int
    warning: str | None = None
    evict: list[str] = field(default_factory=list)
    summary_text: str | None = None
    summary_tokens: int = 0
    replaces: list[str] = field(default_factory=list)


def _evict_order(items: Sequence[_Item]) -> list[_Item]:
    """Lowest importance first; among equals the least recently used, then the oldest."""
    return sorted(items, key=lambda i: (i.importance, i.last_used_at.timestamp() if i.last_used_at else 0.0,
                                        i.seq, i.id))


def decide(live: Sequence[_Item], new_tokens: int, policy: Any) -> Decision:
    """Fit ``live`` items plus a new item of ``new_tokens`` into ``policy.budget_tokens``."""
    budget = policy.budget_tokens
    total = sum(i.tokens for i in live) + new_tokens
    d = Decision(used_with_new=total, used_after=total)
    if total >= policy.warn_ratio * budget:
        d.warning = (f"working memory at {100 * total // budget}% of its {budget}-token budget "
                     f"({total} tokens); the {policy.strategy} strategy "
                     + ("runs now" if total > budget else "runs once it is full"))
    if total <= budget:
        return d
    remaining = list(live)
    if policy.strategy == "compress":
        turns = sorted((i for i in live if i.type == "turn"), key=lambda i: i.seq)
        # the newest turns stay verbatim when that is enough; else they are compressed too
        for keep in dict.fromkeys((policy.keep_recent, 0)):
            recent = {i.id for i in turns[len(turns) - keep:]} if keep else set()
            run = sorted([i for i in live if (i.type == "turn" and i.id not in recent) or i.type == "summary"],
                         key=lambda i: i.seq)
            if not run:
                continue
            cap = max(48, int(budget * policy.summary_ratio))
            text = summarize(run, cap)
            cost = item_tokens("summary", "graphmem", text)
            replaced = sum(i.tokens for i in run)
            if cost >= replaced:
                continue
            d.summary_text, d.summary_tokens, d.replaces = text, cost, [i.id for i in run]
            gone = set(d.replaces)
            remaining = [i for i in live if i.id not in gone]
            if total - replaced + cost <= budget:
                break
        if d.summary_text is not None:
            total = total - sum(i.tokens for i in live if i.id in d.replaces) + d.summary_tokens
    for victim in _evict_order(remaining):
        if total <= budget:
            break
        d.evict.append(victim.id)
        total -= victim.tokens
    if total > budget and d.summary_text is not None:  # the summary itself does not fit: evict instead
        d.evict = d.replaces + d.evict
        total -= d.summary_tokens
        d.summary_text, d.summary_tokens, d.replaces = None, 0, []
    d.used_after = total
    return d
