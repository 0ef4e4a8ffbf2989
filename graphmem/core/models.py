"""Pydantic models in and out, by one name: the events of the ledger (docs/design.md §4) and the answers of reads.

They live by concept — :mod:`graphmem.core.fields` (the checked field types and :func:`parse_time`),
:mod:`graphmem.core.events` (the events and :func:`parse_event`), :mod:`graphmem.core.answers`
(what reads and writes return) — and this module gathers them, so ``from graphmem.core.models
import X`` keeps working. Code that only reads should import :mod:`graphmem.core.answers`: it does
not build the events' schemas.
"""

from __future__ import annotations

from .answers import Answer, Episode, HistoryEntry, SourceRef, Why, WriteResult
from .events import (
    OPS,
    ConfirmEvent,
    DeclareTopicEvent,
    EpisodeEvent,
    EraseCancelEvent,
    EraseRequestEvent,
    Event,
    ExpireEvent,
    MessageEvent,
    PlaybookEvent,
    QuoteClaim,
    QuoteEvent,
    RejectEvent,
    RetractEvent,
    RevokeEvent,
    SetEvent,
    SourceEvent,
    WorkingEvent,
    describe_errors,
    parse_event,
)
from .fields import MAX_ID, MAX_TEXT, Authority, Ident, SourceKind, Time, Value, check_ids, parse_time

__all__ = ["MAX_ID", "MAX_TEXT", "OPS", "Answer", "Authority", "ConfirmEvent", "DeclareTopicEvent", "Episode",
           "EpisodeEvent", "EraseCancelEvent", "EraseRequestEvent", "Event", "ExpireEvent", "HistoryEntry", "Ident",
           "MessageEvent", "PlaybookEvent", "QuoteClaim", "QuoteEvent", "RejectEvent", "RetractEvent", "RevokeEvent",
           "SetEvent", "SourceEvent", "SourceKind", "SourceRef", "Time", "Value", "WorkingEvent", "Why",
           "WriteResult", "check_ids", "describe_errors", "parse_event", "parse_time"]
