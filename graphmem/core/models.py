"""Pydantic models in and out: the events of the ledger (DESIGN.md §4) and the answers of reads.

Events follow docs/format.md (the scenario-file format, unchanged), so a scenario file, a JSONL import and a client
call all go through the same validation. Anything malformed raises
:class:`graphmem.core.errors.ValidationError` before the store is touched.
"""

from __future__ import annotations

import functools
import json
from datetime import date, datetime, timezone
from typing import Annotated, Any, Literal, Union

import pydantic
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from .errors import TemporalError, ValidationError

__all__ = [
    "Answer",
    "Authority",
    "ConfirmEvent",
    "DeclareTopicEvent",
    "Episode",
    "EpisodeEvent",
    "EraseCancelEvent",
    "EraseRequestEvent",
    "Event",
    "ExpireEvent",
    "HistoryEntry",
    "MessageEvent",
    "PlaybookEvent",
    "QuoteClaim",
    "QuoteEvent",
    "RejectEvent",
    "RetractEvent",
    "RevokeEvent",
    "SetEvent",
    "SourceEvent",
    "Why",
    "WriteResult",
    "check_ids",
    "describe_errors",
    "parse_event",
    "parse_time",
]

Authority = Literal["L0", "L1", "L2"]
SourceKind = Literal["message", "email", "tool", "document", "import"]
MAX_TEXT = 100_000  # characters of one source or message text; documented in README
MAX_ID = 200  # characters of an id, subject, topic, ref, env or session


def parse_time(value: Any) -> datetime:
    """ISO 8601 to an aware UTC datetime. A date alone means midnight UTC (FORMAT.md)."""
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, date):
        dt = datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        text = value.strip()
        if text.endswith("Z") or text.endswith("z"):
            text = text[:-1] + "+00:00"
        try:
            dt = datetime.fromisoformat(text)
        except ValueError as e:
            raise ValidationError(f"not an ISO 8601 time: {value!r}") from e
    else:
        raise ValidationError(f"not a time: {value!r}")
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(timezone.utc)


def _clean_text(value: str, what: str, limit: int) -> str:
    if "\x00" in value:
        raise ValueError(f"{what} contains a NUL byte")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:  # lone surrogates: not valid UTF-8
        raise ValueError(f"{what} is not valid UTF-8") from e
    if len(value) > limit:
        raise ValueError(f"{what} is longer than {limit} characters")
    return value


Time = Annotated[datetime, pydantic.BeforeValidator(parse_time)]


def _ident(v: Any) -> str:
    if not isinstance(v, str):
        raise ValueError("must be a string")
    text: str = _clean_text(v, "identifier", MAX_ID).strip()
    if not text:
        raise ValueError("must not be empty")
    return text


Ident = Annotated[str, pydantic.BeforeValidator(_ident)]


def check_ids(**values: Any) -> None:
    """Keyword arguments of a read (subject, topic, env…) checked like the events' identifiers:
    each that is given must pass :data:`Ident`'s rules, or :class:`ValidationError` names it."""
    for key, value in values.items():
        if value is None:
            continue
        try:
            _ident(value)
        except ValueError as e:
            raise ValidationError(f"{key} {e} (a non-empty string of at most {MAX_ID} characters)") from e


def _value(v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, (str, int, float)):
        raise ValueError("a value is a string or a number")
    return _clean_text(str(v), "value", MAX_TEXT)


Value = Annotated[str, pydantic.BeforeValidator(_value)]


class _Event(BaseModel):
    """Fields every event may carry."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    recorded_at: Time | None = None
    source: Ident | None = None
    actor: Ident | None = None
    reason: Annotated[str, pydantic.BeforeValidator(lambda v: _clean_text(v, "reason", 2_000))] | None = None
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
    text: Annotated[str, pydantic.BeforeValidator(lambda v: _clean_text(v, "text", MAX_TEXT))] = ""
    author: Ident | None = None
    expires_at: Time | None = Field(default=None, description="facts from this source stop answering then")


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
    evidence: Annotated[str, pydantic.BeforeValidator(lambda v: _clean_text(v, "evidence", MAX_TEXT))] | None = None
    expires_at: Time | None = Field(default=None, description="from then on the fact no longer answers")

    @model_validator(mode="after")
    def _check(self) -> "SetEvent":
        if (self.value is None) == (self.object is None):
            raise ValueError("a set needs exactly one of 'value' (a literal) and 'object' (an entity id)")
        if self.authority == "L0" and not self.session:
            raise ValueError("authority L0 belongs to one task: give its 'session'")
        if self.valid_from and self.valid_to and self.valid_to <= self.valid_from:
            raise TemporalError(f"valid_to {self.valid_to.isoformat()} is not after valid_from {self.valid_from.isoformat()}")
        return self


class RevokeEvent(_Event):
    """A change point to 'no value' (for a many-valued topic: of one value, or all)."""

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
        if self.authority == "L0" and not self.session:
            raise ValueError("authority L0 belongs to one task: give its 'session'")
        return self


class QuoteClaim(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    subject: Ident
    topic: Ident
    value: Value | None = None
    object: Ident | None = None
    env: Ident | None = None

    @model_validator(mode="after")
    def _check(self) -> "QuoteClaim":
        if (self.value is None) == (self.object is None):
            raise ValueError("a claim needs exactly one of 'value' and 'object'")
        return self


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

    @model_validator(mode="after")
    def _one(self) -> "_RefEvent":
        if (self.ref is None) == (self.fact is None):
            raise ValueError("name the assertion with exactly one of 'ref' and 'fact'")
        return self


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
    ttl_seconds: int | None = Field(default=None, gt=0, description="facts of this topic expire this long after they are recorded")


class ExpireEvent(_Event):
    """The sweeper's bookkeeping: these facts reached their expiry (written by ``sweep``)."""

    op: Literal["expire"]
    facts: list[Ident] = Field(min_length=1)


class EraseRequestEvent(_Event):
    """An erase request (DESIGN.md §5: a model never erases irreversibly on its own): the facts it
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
    detail: dict[str, Any] = Field(default_factory=dict)


class WorkingEvent(_Event):
    """A step of a session's working memory (graphmem.working.working): an item added, used, evicted or
    compressed into a summary, a checkpoint, a context read, the session's close. In the ledger so
    a crashed agent resumes from it, ``rebuild`` replays it and ``erase`` can redact it; it changes
    no fact. ``detail`` is checked by graphmem.working.working before the event is made."""

    op: Literal["working"]
    action: Literal["open", "add", "use", "evict", "compress", "checkpoint", "context", "close"]
    session: Ident
    detail: dict[str, Any] = Field(default_factory=dict)


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
    what: Annotated[str, pydantic.BeforeValidator(lambda v: _clean_text(v, "what", 2_000).strip())]
    where: Annotated[str, pydantic.BeforeValidator(lambda v: _clean_text(v, "where", MAX_ID).strip())] | None = None
    start: Time | None = None
    end: Time
    evidence: Annotated[str, pydantic.BeforeValidator(lambda v: _clean_text(v, "evidence", MAX_TEXT))] | None = None
    planned: bool = Field(default=False, description="a plan ahead of its source ('next month'): not done yet")

    @model_validator(mode="after")
    def _check(self) -> "EpisodeEvent":
        if not self.what:
            raise ValueError("an episode needs 'what' (what was done)")
        if self.start is not None and self.end <= self.start:
            raise TemporalError(f"end {self.end.isoformat()} is not after start {self.start.isoformat()}")
        return self


class MessageEvent(_Event):
    """Free text; the extractor turns it into events whose source is this message."""

    op: Literal["message"]
    id: Ident
    at: Time
    speaker: Ident
    text: Annotated[str, pydantic.BeforeValidator(lambda v: _clean_text(v, "text", MAX_TEXT))]
    about: Ident | None = None
    session: Ident | None = None
    kind: SourceKind = "message"
    drawn: list[dict[str, Any]] | None = Field(
        default=None, description="the events the extractor drew; stored in the ledger so replay never re-extracts")
    drawn_as: Literal["stated", "inferred"] = Field(
        default="stated", description="inferred: not a person's own words (an assistant's); what is drawn "
                                      "from it is an L2 candidate")


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
    if not isinstance(data, dict):
        raise ValidationError("an event must be a JSON object")
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


# ---------------------------------------------------------------------------------------------
# Answers


class SourceRef(BaseModel):
    """Where a fact came from."""

    model_config = ConfigDict(defer_build=True)  # built on first use: a CLI read pays only for its own

    uid: str
    kind: str | None = None
    at: datetime | None = None
    author: str | None = None
    text: str | None = None


class Answer(BaseModel):
    """The answer of ``as_of``.

    Exactly one shape holds: ``value`` (one-valued topic; None = nothing holds), ``values``
    (many-valued topic), or ``conflict`` (two or more different values, equally trusted).
    """

    model_config = ConfigDict(defer_build=True)  # built on first use: a CLI read pays only for its own

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
    fact: str | None = None
    authority: str | None = None
    status: str | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    author: str | None = None
    notes: list[str] = Field(default_factory=list, description="expired / resumed: what an expiry changed here")

    @property
    def holds(self) -> bool:
        return self.value is not None or bool(self.values) or bool(self.conflict)


class HistoryEntry(BaseModel):
    """One stretch of the valid-time timeline (``expired``: a fact that no longer answers)."""

    model_config = ConfigDict(defer_build=True)  # built on first use: a CLI read pays only for its own

    value: str | None = None
    expired: bool = False
    conflict: list[str] | None = None
    valid_from: datetime
    valid_to: datetime | None = None
    source: str | None = None
    fact: str | None = None


class Why(BaseModel):
    """The source behind an answer and the change point it replaced."""

    model_config = ConfigDict(defer_build=True)  # built on first use: a CLI read pays only for its own

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


class Episode(BaseModel):
    """One stored episode (``GraphMem.episodes``): who did what, where, in ``[start, end)``."""

    model_config = ConfigDict(defer_build=True)  # built on first use: a CLI read pays only for its own

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


class WriteResult(BaseModel):
    """What one applied event did."""

    model_config = ConfigDict(defer_build=True)  # built on first use: a CLI read pays only for its own

    seq: int
    op: str
    recorded_at: datetime
    fact: str | None = None
    facts: list[str] = Field(default_factory=list)
    duplicate: bool = False
