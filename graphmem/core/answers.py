"""The answers of reads, as pydantic models: what ``as_of``, ``history``, ``why``, ``episodes`` and a
write return.

Apart from the events (:mod:`graphmem.core.events`) so that a read builds none of the events'
schemas; each model is built on first use, so a CLI read pays only for its own.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Answer", "Episode", "SessionMessage", "HistoryEntry", "QuotedClaim", "SourceRef", "Why", "WriteResult"]


RELAYED = ("the agent that relayed the words behind this answer as the user's (graphmem.core.relay): "
           "the user did not send them to the store")


class _Answer(BaseModel):
    """What every answer shares: its schema is built on first use, so a CLI read pays only for its own."""

    model_config = ConfigDict(defer_build=True)


class WriteResult(_Answer):
    """What one applied event did."""

    seq: int
    op: str
    recorded_at: datetime
    fact: str | None = None
    facts: list[str] = Field(default_factory=list)
    duplicate: bool = False


class SourceRef(_Answer):
    """Where a fact came from."""

    uid: str
    kind: str | None = None
    at: datetime | None = None
    author: str | None = None
    text: str | None = None


class Answer(_Answer):
    """The answer of ``as_of``.

    Exactly one shape holds: ``value`` (one-valued topic; None = nothing holds), ``values``
    (many-valued topic), or ``conflict`` (two or more different values, equally trusted).
    """

    subject: str
    topic: str
    env: str | None = None
    valid_at: datetime
    known_at: datetime
    value: str | None = None
    values: list[str] | None = None
    conflict: list[str] | None = None
    is_entity: bool = False
    source: str | None = None
    sources: list[str] = Field(default_factory=list)
    fact: str | None = Field(default=None, description="the answering fact's uid (the first, for several)")
    authority: str | None = None
    status: str | None = None
    valid_from: datetime | None = Field(default=None, description="the answering stretch of valid time")
    valid_to: datetime | None = None
    author: str | None = None
    relayed_by: str | None = Field(default=None, description=RELAYED)
    notes: list[str] = Field(default_factory=list, description="expired / resumed: what an expiry changed here")

    @property
    def holds(self) -> bool:
        return self.value is not None or bool(self.values) or bool(self.conflict)


class HistoryEntry(_Answer):
    """One stretch of the valid-time timeline (``expired``: a fact that no longer answers)."""

    value: str | None = None
    expired: bool = False
    conflict: list[str] | None = None
    valid_from: datetime
    valid_to: datetime | None = None
    source: str | None = None
    fact: str | None = None
    relayed_by: str | None = Field(default=None, description=RELAYED)


class QuotedClaim(_Answer):
    """A quoted document's claim for the asked instant that is not the answer (docs/semantics.md):
    ``agrees`` when it says the answer's value (corroborating), else it contradicts it."""

    source: str | None = None
    fact: str
    value: str | None = None
    agrees: bool = False


class Why(_Answer):
    """The source behind an answer and the change point it replaced."""

    subject: str
    topic: str
    value: str | None = None
    conflict: list[str] | None = None
    source: str | None = None
    fact: str | None = None
    supersedes_source: str | None = None
    supersedes_fact: str | None = None
    supersedes_value: str | None = None
    quoted_by: list[str] = Field(default_factory=list)
    text: str | None = None
    relayed_by: str | None = Field(default=None, description=RELAYED)
    quotes: list[QuotedClaim] = Field(default_factory=list, description="quoted claims for that instant "
                                      "that a statement outranks: corroborating (agrees) or conflicting")


class SessionMessage(_Answer):
    """One message of a session (``GraphMem.messages``), in the order it was said."""

    id: str
    speaker: str | None = None
    text: str
    kind: str
    at: datetime
    relayed_by: str | None = Field(default=None, description="the agent that relayed the speaker's words "
                                   "(graphmem.core.relay)")


class Episode(_Answer):
    """One stored episode (``GraphMem.episodes``): who did what, where, in ``[start, end)``."""

    uid: str
    who: str
    what: str
    where: str | None = None
    start: datetime | None = None  # None: some time before ``end`` (the text does not say when)
    end: datetime
    source: str
    said_at: datetime | None = None
    evidence: str | None = None
    planned: bool = False
    recorded_at: datetime
    text: str | None = None
    relayed_by: str | None = Field(default=None, description="the agent that relayed the words it was drawn "
                                   "from (graphmem.core.relay)")
