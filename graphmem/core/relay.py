"""Words an agent relayed as a person's: who relayed them, read from a source, and the one mark every
surface shows (docs/governance.md, "Authorship").

A message the user said to an agent and the agent recorded (MCP ``remember(said_by="user")``) is
the user's statement, but the user never sent it to the store: the agent may have paraphrased or
mistaken it. The message's ``relayed_by`` (an event field, replayed like every other) keeps that
apart from the speaker, and every answer, context item and search result drawn from it carries
``relayed_by`` and says so.

Stores written before the field existed marked the relay in the source *id*
(``relayed~<agent>~<id>``); :func:`relayed_by_id` still reads those, so an old store's relayed
facts stay marked without a migration.
"""

from __future__ import annotations

from typing import Iterable, Mapping

__all__ = ["LEGACY_MARK", "relay_mark", "relay_note", "relayed_by", "relayed_by_id"]

LEGACY_MARK = "relayed~"  # the id prefix the MCP server wrote before ``relayed_by`` was a field


def relayed_by_id(source: str | None) -> str | None:
    """The agent an old-style relayed id names (``relayed~claude~m2`` → ``claude``), else None."""
    if not source or LEGACY_MARK not in source:
        return None
    agent = source.split(LEGACY_MARK, 1)[1].split("~", 1)[0]
    return agent or None


def relayed_by(sources: Iterable[str | None], stored: Mapping[str, str]) -> str | None:
    """The agent that relayed the first relayed one of ``sources``: its stored ``relayed_by``
    (``stored``: source id → agent), else an old-style relayed id's agent; None when none was."""
    for source in sources:
        if source:
            agent = stored.get(source) or relayed_by_id(source)
            if agent:
                return agent
    return None


def relay_mark(agent: str) -> str:
    """The short mark a rendered line carries: ``relayed by agent claude``."""
    return f"relayed by agent {agent}"


def relay_note(agent: str) -> str:
    """The ``relayed`` warning's text, the same on every surface (after ``relayed: ``)."""
    return f"the user's words as agent {agent} passed them on, not a message the user sent"
