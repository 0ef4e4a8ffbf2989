"""The warning vocabulary: one text per kind, for every surface that shows one.

A recall item (graphmem.recall.items) and an MCP answer (graphmem.interfaces.mcp_server) used to
word the same warning two ways ("candidate: not confirmed" beside "an unconfirmed candidate, not a
fact until confirmed"); an agent reading both should see one sentence per kind. The kinds and
when each is drawn are listed in docs/recall.md ("Items and warnings").
"""

from __future__ import annotations

from typing import Any, Iterable

__all__ = ["CANDIDATE", "CONFLICTING", "INFERRED", "SESSION", "asserted_by", "conflicting"]

INFERRED = "inferred from history; nobody stated it — confirm before relying on it"
SESSION = "holds for this session only"
CANDIDATE = "an unconfirmed candidate, not a fact until confirmed"
CONFLICTING = "sources disagree and nothing here decides"


def asserted_by(text: str, author: str | None) -> str:
    """A warning's text with who asserted the value, when that is known."""
    return text + (f" (asserted by {author})" if author else "")


def conflicting(claims: Iterable[Any], sep: str = "; ") -> str:
    """The conflicting warning, listing what each side claims."""
    return f"{CONFLICTING}: " + sep.join(map(str, claims))
