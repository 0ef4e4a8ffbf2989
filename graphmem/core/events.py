"""The events of the ledger (docs/design.md §4), as pydantic models, and :func:`parse_event`.

Events follow docs/format.md (the scenario-file format, unchanged), so a scenario file, a JSONL import and a client
call all go through the same validation. Anything malformed raises
:class:`graphmem.core.errors.ValidationError` before the store is touched. The answers of reads are
:mod:`graphmem.core.answers` (a read needs none of these schemas); the field rules both use are
:mod:`graphmem.core.fields`.
"""

from __future__ import annotations

import functools
import json
from datetime import date
from typing import Annotated, Any, Literal, Union

import pydantic
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from .errors import TemporalError, ValidationError
from .fields import (MAX_DEPTH, MAX_ID, MAX_TEXT, MAX_TTL_SECONDS, Authority, Ident, JsonObject, SourceKind, Time, Value,
                     check_json, exactly_one, need_after, need_one, need_session, text_field)

__all__ = ["OPS", "ConfirmEvent", "DeclareTopicEvent", "EpisodeEvent", "EraseCancelEvent", "EraseRequestEvent",
           "Event", "ExpireEvent", "MessageEvent", "PlaybookEvent", "QuoteClaim", "QuoteEvent", "RejectEvent",
           "RetractEvent", "RevokeEvent", "SetEvent", "SourceEvent", "WorkingEvent", "describe_errors",
           "parse_event"]


RELAYED_BY = ("the agent that relayed the author's words to the store (they did not send them themselves): "
              "answers drawn from it say so")


class _Event(BaseModel):
    """Fields every event may carry."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    recorded_at: Time | None = None
    source: Ident | None = None
    actor: Ident | None = None
    reason: Annotated[str, text_field("reason", 2_000)] | None = None
    tenant: Ident | None = None
    id: Ident | None = Field(default=None, description="idempotency id: a retried write applies once")
    expect_error: bool = Field(default=False, exclude=True, description="eval only")

    def payload(self) -> dict[str, Any]:
        """The event as stored in the ledger (JSON-ready, no tenant: the ledger is per tenant)."""
        return self.model_dump(mode="json", exclude_none=True, exclude={"tenant", "expect_error"})


class SourceEvent(_Event):
    """Register a source (message, email, tool result, document, import) with its own time."""

    op: Literal["source"]
    id: Ident  # the source id doubles as the idempotency id
    kind: SourceKind
    at: Time
    text: Annotated[str, text_field("text", MAX_TEXT)] = ""
    author: Ident | None = None
    expires_at: Time | None = Field(default=None, description="facts from this source stop answering then")
    relayed_by: Ident | None = Field(default=None, description=RELAYED_BY)


class SetEvent(_Event):
    """Assert a value for (subject, topic[, env]); open-ended = change point, bounded = exception."""

    op: Literal["set"]
    subject: Ident
    topic: Ident
    value: Value | None = None
    object: Ident | None = None
    valid_from: Time | None = None
    valid_to: Time | None = None
    env: Ident | None = None
    authority: Authority = "L1"
    status: Literal["confirmed", "candidate"] = "confirmed"
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    session: Ident | None = None
    ref: Ident | None = None
    evidence: Annotated[str, text_field("evidence", MAX_TEXT)] | None = None
    expires_at: Time | None = Field(default=None, description="from then on the fact no longer answers")

    @model_validator(mode="after")
    def _check(self) -> "SetEvent":
        need_one(self, "value", "object", "a set needs exactly one of 'value' (a literal) and 'object' (an entity id)")
        need_session(self)
        need_after(self, "valid_from", "valid_to")
        return self


class RevokeEvent(_Event):
    """A change point to 'no value' (for a many-valued topic: of one value, or all) at ``effective``
    (default: when recorded)."""

    op: Literal["revoke"]
    subject: Ident
    topic: Ident
    value: Value | None = None
    env: Ident | None = None
    authority: Authority = "L1"
    session: Ident | None = None
    effective: Time | None = None

    @model_validator(mode="after")
    def _check(self) -> "RevokeEvent":
        need_session(self)
        return self


class QuoteClaim(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    subject: Ident
    topic: Ident
    value: Value | None = None
    object: Ident | None = None
    env: Ident | None = None

    _one = exactly_one("value", "object", "a claim needs exactly one of 'value' and 'object'")


class QuoteEvent(_Event):
    """A newer source cites an older one; its claims are dated at the older source's time."""

    op: Literal["quote"]
    source: Ident  # required here: the quoting source
    quotes: Ident
    claims: list[QuoteClaim] = Field(default_factory=list)


class _RefEvent(_Event):
    """Names one earlier assertion: by the ``ref`` label it was given, or by its fact uid."""

    ref: Ident | None = None
    fact: Ident | None = None

    _one = exactly_one("ref", "fact", "name the assertion with exactly one of 'ref' and 'fact'")


class ConfirmEvent(_RefEvent):
    """Move a candidate fact to confirmed (record time only)."""

    op: Literal["confirm"]


class RejectEvent(_RefEvent):
    """Drop a candidate fact."""

    op: Literal["reject"]


class RetractEvent(_RefEvent):
    """Withdraw one assertion from this record time on; earlier known_at still sees it."""

    op: Literal["retract"]


class DeclareTopicEvent(_Event):
    """Declare a topic's cardinality. It is a ledger event so that replay rebuilds the same answers."""

    op: Literal["topic"]
    name: Ident
    cardinality: Literal["one", "many"] = "one"
    ttl_seconds: int | None = Field(default=None, gt=0, le=MAX_TTL_SECONDS,
                                    description="facts of this topic expire this long after they are recorded")


class ExpireEvent(_Event):
    """The sweeper's bookkeeping: these facts reached their expiry (written by ``sweep``)."""

    op: Literal["expire"]
    facts: list[Ident] = Field(min_length=1)


class EraseRequestEvent(_Event):
    """An erase request (docs/design.md §5: a model never erases irreversibly on its own): the facts it
    names stop taking part from this record time on — reversibly — until a person confirms the
    erase (``confirm_erase``) or cancels it (``erase_cancel``)."""

    op: Literal["erase_request"]
    id: Ident  # the request id
    subject: Ident | None = None
    source_id: Ident | None = None
    facts: list[Ident] = Field(default_factory=list)
    sources: list[Ident] = Field(default_factory=list)


class EraseCancelEvent(_Event):
    """Withdraw an erase request: what it held back takes part again from this record time on."""

    op: Literal["erase_cancel"]
    request: Ident


class PlaybookEvent(_Event):
    """A playbook transition (draft, activate, reject, rollback of an L3 card; request, edit,
    approve, reject, rollback, feedback of an L4 workflow version), recorded in the ledger so the
    audit trail and its chain cover it. It changes no fact."""

    op: Literal["playbook"]
    action: Literal["draft", "activate", "reject", "rollback_card", "request", "edit", "approve",
                    "reject_version", "rollback", "feedback"]
    target: Ident
    detail: JsonObject = Field(default_factory=dict)


class WorkingEvent(_Event):
    """A step of a session's working memory (graphmem.working.working): an item added, used, evicted or
    compressed into a summary, a checkpoint, a context read, the session's close. In the ledger so
    a crashed agent resumes from it, ``rebuild`` replays it and ``erase`` can redact it; it changes
    no fact. ``detail`` is checked by graphmem.working.working before the event is made."""

    op: Literal["working"]
    action: Literal["open", "add", "use", "evict", "compress", "checkpoint", "context", "close"]
    session: Ident
    detail: JsonObject = Field(default_factory=dict)


class MessageEvent(_Event):
    """Free text; the extractor turns it into events whose source is this message."""

    op: Literal["message"]
    id: Ident
    at: Time
    speaker: Ident
    text: Annotated[str, text_field("text", MAX_TEXT)]
    about: Ident | None = None
    session: Ident | None = None
    kind: SourceKind = "message"
    drawn: list[dict[str, Any]] | None = Field(
        default=None, description="the events the extractor drew; stored in the ledger so replay never re-extracts")
    drawn_as: Literal["stated", "inferred"] = Field(
        default="stated", description="inferred: not a person's own words (an assistant's); what is drawn "
                                      "from it is an L2 candidate")
    relayed_by: Ident | None = Field(default=None, description=RELAYED_BY)


class EpisodeEvent(_Event):
    """Something a person did at a time ("I went to a support group yesterday"): who, what, where,
    and when as a day or a range ``[start, end)`` (a vague "last week" is its Monday to the next);
    no ``start`` when the text does not say when ("I joined a writers group"): some time before
    ``end``.
    An episode is a record of its own, not a fact: it supersedes nothing and never answers
    ``as_of``. Drawn from a message it names that message as its ``source``."""

    op: Literal["episode"]
    source: Ident  # required: the text that reports it
    who: Ident
    what: Annotated[str, text_field("what", 2_000, strip=True)]
    where: Annotated[str, text_field("where", MAX_ID, strip=True)] | None = None
    start: Time | None = None
    end: Time
    evidence: Annotated[str, text_field("evidence", MAX_TEXT)] | None = None
    planned: bool = Field(default=False, description="a plan ahead of its source ('next month'): not done yet")

    @model_validator(mode="after")
    def _check(self) -> "EpisodeEvent":
        if not self.what:
            raise ValueError("an episode needs 'what' (what was done)")
        need_after(self, "start", "end")
        return self


Event = Annotated[
    Union[SourceEvent, SetEvent, RevokeEvent, QuoteEvent, ConfirmEvent, RejectEvent, RetractEvent,
          DeclareTopicEvent, MessageEvent, ExpireEvent, EraseRequestEvent, EraseCancelEvent, PlaybookEvent,
          WorkingEvent, EpisodeEvent],
    Field(discriminator="op"),
]


@functools.cache
def _event_adapter() -> TypeAdapter[Any]:
    """The event union's validator, built on first use: a read-only process (a CLI query) never
    pays for building thirteen event schemas at import."""
    return TypeAdapter(Event)

OPS = ("source", "set", "revoke", "quote", "confirm", "reject", "retract", "topic", "message", "expire",
       "erase_request", "erase_cancel", "playbook", "working", "episode")


def parse_event(data: Any) -> Any:
    """A dict (or JSON text) to a typed event; anything malformed raises ValidationError."""
    if isinstance(data, BaseModel):
        return data
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError) as e:
            raise ValidationError(f"an event must be a JSON object: {e}") from e
        except RecursionError as e:
            raise ValidationError(f"an event is nested more than {MAX_DEPTH} levels deep") from e
    if not isinstance(data, dict):
        raise ValidationError("an event must be a JSON object")
    check_json(data, "the event", (date, BaseModel))  # before pydantic: depth, NaN, NUL, surrogates anywhere inside
    op = data.get("op")
    if op not in OPS:
        raise ValidationError(f"unknown op {op!r}; expected one of {', '.join(OPS)}")
    try:
        return _event_adapter().validate_python(data)
    except TemporalError:
        raise
    except pydantic.ValidationError as e:
        for err in e.errors():
            cause = (err.get("ctx") or {}).get("error")
            if isinstance(cause, TemporalError):
                raise TemporalError(str(cause)) from e
        raise ValidationError(_describe(op, e)) from e


def _describe(op: str, e: pydantic.ValidationError) -> str:
    return f"invalid {op} event: " + describe_errors(e, skip=op)


def describe_errors(e: pydantic.ValidationError, skip: str | None = None) -> str:
    """Pydantic's report as one line, a ``field: message`` per error (``skip``: a location part
    not worth naming, such as the tagged union's op) — a typed error's text, not a multi-line dump."""
    parts = []
    for err in e.errors():
        loc = ".".join(str(p) for p in err["loc"] if p != skip)
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts)
