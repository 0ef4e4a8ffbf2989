"""What a non-person's words may give: the rule the write path applies to every message drawn
with ``drawn_as="inferred"`` (an assistant's, a system prompt's, a tool's — chat rows by role,
graphmem.store.transcripts; the MCP server's own words; the working end gate's inferences).

docs/design.md §5: only a person's own words are L1; what a model asserts on its own is L2. The write
path already makes every ``set``/``revoke`` drawn from such a message an L2 candidate;
:func:`keep_drawn` decides what may be drawn at all — nothing about the speaker itself ("Noted,
vegetarian." said by the assistant is not the assistant's diet), no quote (a quote's claims are
dated and authored as the quoted document's, which would make the model's rendering of it a
person's statement) and no episode. What remains — a value about someone or something else
("Lasagna is vegan if …") — is at most an L2 candidate a person can confirm.

It runs where the store calls its extractor (graphmem.store.api), so it holds for any extractor
plugged in with ``GraphMem(extractor=…)``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["keep_drawn"]


def keep_drawn(drawn: list[dict[str, Any]], speaker: str, drawn_as: str) -> list[dict[str, Any]]:
    """What of a message's drawn events may stand: all of a person's (``drawn_as="stated"``); of a
    non-person's, only ``set``/``revoke`` about another subject (made L2 candidates where they are
    applied) — never the speaker's own "facts", a quote's claims, its quoted source or an episode."""
    if drawn_as == "stated":
        return drawn
    return [d for d in drawn if d.get("op") in ("set", "revoke") and d.get("subject") != speaker]
