"""Writes of facts, one command per client verb: set, revoke, retract, confirm, reject, quote,
add-source, declare-topic (old name ``topic``), alias. Every event these write goes through the
client's validation: bad input is refused with ``Error: …`` and writes nothing. Batches and upkeep
(apply, import, ingest, schema, rebuild, …) are in :mod:`graphmem.interfaces.cli.batches`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, cast

import typer

from ...core.errors import ValidationError
from .common import Commands, Opts, json_arg

if TYPE_CHECKING:
    from ...core.fields import SourceKind
    from ...store.client import GraphMem

cmds = Commands()
register = cmds.register

# Fields every event may carry (docs/format.md): given on the command line, passed through as keywords.
SourceOpt = typer.Option(None, "--source", help="the source id this assertion is drawn from")
ReasonOpt = typer.Option(None, "--reason", help="why (kept in the ledger)")
RecordedOpt = typer.Option(None, "--recorded-at", help="record time (default now)")
IdOpt = typer.Option(None, "--id", help="idempotency id: a retried write applies once")
EnvOpt = typer.Option(None, help="environment (e.g. prod) of an env-scoped topic")
SessionOpt = typer.Option(None, help="the task session (authority L0 needs one)")
AuthorityOpt = typer.Option(None, help="L0 (task), L1 (stated) or L2 (inferred); default L1")
RelayedByOpt = typer.Option(None, "--relayed-by", help="the agent that relayed the speaker's words (answers "
                                                      "drawn from them say so)")
RefArg = typer.Argument(None, help="the label a set gave with --ref")
FactOpt = typer.Option(None, "--fact", help="name the assertion by its fact id instead of REF")


def given(**fields: Any) -> dict[str, Any]:
    """The keywords the user gave (None means 'not given': the event's default holds)."""
    return {k: v for k, v in fields.items() if v is not None}


@cmds("set", actor=True)
def set_(store: GraphMem, opts: Opts, subject: str, topic: str,
         value: Optional[str] = typer.Argument(None, help="the value (or give --object)"),
         object: Optional[str] = typer.Option(None, "--object", help="an entity id instead of a literal value"),
         valid_from: Optional[str] = None, valid_to: Optional[str] = None, env: Optional[str] = EnvOpt,
         authority: Optional[str] = AuthorityOpt,
         status: Optional[str] = typer.Option(None, help="confirmed (default) or candidate"),
         confidence: Optional[float] = None, session: Optional[str] = SessionOpt,
         evidence: Optional[str] = None, expires_at: Optional[str] = None,
         ref: Optional[str] = typer.Option(None, "--ref", help="a label confirm/reject/retract can name it by"),
         source: Optional[str] = SourceOpt, reason: Optional[str] = ReasonOpt,
         recorded_at: Optional[str] = RecordedOpt, id: Optional[str] = IdOpt) -> Any:
    """Assert VALUE (or --object ENTITY) for SUBJECT's TOPIC; open-ended from --valid-from is a
    change point, with --valid-to a bounded exception.

    Example: graphmem set deploy port 8080 --valid-from 2026-11-01T10:30:00Z --source m1 -t t-port
    Example: graphmem set lin office B2 --status candidate --ref guess-1 -t acme
    """
    return store.set(subject, topic, value, **given(
        object=object, valid_from=valid_from, valid_to=valid_to, env=env, authority=authority, status=status,
        confidence=confidence, session=session, evidence=evidence, expires_at=expires_at, ref=ref, source=source,
        reason=reason, recorded_at=recorded_at, id=id))


@cmds("revoke", actor=True)
def revoke(store: GraphMem, opts: Opts, subject: str, topic: str,
           value: Optional[str] = typer.Option(None, help="only this value (a many-valued topic)"),
           effective: Optional[str] = typer.Option(None, help="valid time it stops holding (default now)"),
           env: Optional[str] = EnvOpt, authority: Optional[str] = AuthorityOpt,
           session: Optional[str] = SessionOpt, source: Optional[str] = SourceOpt,
           reason: Optional[str] = ReasonOpt, recorded_at: Optional[str] = RecordedOpt,
           id: Optional[str] = IdOpt) -> Any:
    """SUBJECT's TOPIC stops holding from --effective on (valid time); what held before stays.

    Example: graphmem revoke lin office --effective 2026-12-01 --reason "moved out" -t acme
    """
    return store.revoke(subject, topic, **given(value=value, effective=effective, env=env, authority=authority,
                                               session=session, source=source, reason=reason,
                                               recorded_at=recorded_at, id=id))


def _by_ref(store: GraphMem, op: str, ref: Optional[str], fact: Optional[str], **fields: Any) -> Any:
    if (ref is None) == (fact is None):
        raise ValidationError(f"{op} needs exactly one of REF and --fact")
    return getattr(store, op)(ref, **given(fact=fact, **fields))


def _by_ref_command(op: str, doc: str) -> Callable[..., Any]:
    """``retract``, ``confirm`` and ``reject`` take the same arguments: one command shape, three verbs."""
    def command(store: GraphMem, opts: Opts, ref: Optional[str] = RefArg, fact: Optional[str] = FactOpt,
                source: Optional[str] = typer.Option(None, "--source", help="the source this decision rests on"),
                reason: Optional[str] = ReasonOpt, recorded_at: Optional[str] = RecordedOpt,
                id: Optional[str] = IdOpt) -> Any:
        return _by_ref(store, op, ref, fact, source=source, reason=reason, recorded_at=recorded_at, id=id)
    command.__name__, command.__doc__ = op, doc
    return cmds(op, actor=True)(command)


retract = _by_ref_command("retract", """Withdraw one assertion from this record time on (an earlier --known-at still sees it).

    Example: graphmem retract move-1 --reason "plan cancelled" -t acme
    """)
confirm = _by_ref_command("confirm", """Move a candidate assertion to confirmed (record time only).

    Example: graphmem confirm guess-1 -t acme
    """)
reject = _by_ref_command("reject", """Drop a candidate assertion.

    Example: graphmem reject guess-1 --reason "not true" -t acme
    """)


@cmds("quote", actor=True)
def quote(store: GraphMem, opts: Opts, source: str = typer.Argument(..., help="the quoting source"),
          quotes: str = typer.Argument(..., help="the source it quotes"),
          claims: Optional[str] = typer.Option(None, "--claims", help='JSON list of {"subject","topic","value"}'),
          reason: Optional[str] = ReasonOpt, recorded_at: Optional[str] = RecordedOpt,
          id: Optional[str] = IdOpt) -> Any:
    """Record that SOURCE quotes QUOTES (an older document): its claims are the old document's,
    dated by it, and never overrule newer facts.

    Example: graphmem quote mail-7 doc-2019 --claims '[{"subject":"lin","topic":"office","value":"B2"}]'
    """
    return store.quote(source, quotes, json_arg(claims, "--claims"),
                       **given(reason=reason, recorded_at=recorded_at, id=id))


@cmds("add-source", actor=True)
def add_source(store: GraphMem, opts: Opts, id: str = typer.Argument(..., help="the source id"),
               kind: str = typer.Option(..., help="message, email, tool, document or import"),
               at: str = typer.Option(..., help="when it was written or said"),
               text: str = typer.Option("", help="its text"), author: Optional[str] = None,
               expires_at: Optional[str] = None, relayed_by: Optional[str] = RelayedByOpt,
               reason: Optional[str] = ReasonOpt, recorded_at: Optional[str] = RecordedOpt) -> Any:
    """Record a source (a message, e-mail, tool output, document) that facts cite with --source.

    Example: graphmem add-source m1 --kind message --at 2026-11-01T10:30:00Z --text "port is 8080" --author ops
    """
    return store.add_source(id, kind=cast("SourceKind", kind), at=at, text=text, author=author,  # the client checks it
                            **given(expires_at=expires_at, relayed_by=relayed_by, reason=reason,
                                    recorded_at=recorded_at))


@cmds("declare-topic", actor=True, aliases=("topic",))
def declare_topic(store: GraphMem, opts: Opts, name: str,
                  cardinality: str = typer.Option("one", help="one (a new value replaces) or many (values add up)"),
                  ttl_seconds: Optional[int] = typer.Option(None, help="facts expire this long after recording"),
                  source: Optional[str] = SourceOpt, reason: Optional[str] = ReasonOpt,
                  recorded_at: Optional[str] = RecordedOpt, id: Optional[str] = IdOpt) -> Any:
    """Declare a topic's cardinality (and an optional time to live); `graphmem topic` is the same.

    Example: graphmem declare-topic skills --cardinality many -t acme
    """
    return store.declare_topic(name, cast("Literal['one', 'many']", cardinality),  # the client checks it
                               **given(ttl_seconds=ttl_seconds, source=source, reason=reason,
                                       recorded_at=recorded_at, id=id))


@cmds("alias", actor=True)
def alias(store: GraphMem, opts: Opts, subject: str, alias: str, source: Optional[str] = SourceOpt,
          valid_from: Optional[str] = typer.Option(None, help="from when the name is in use (default: always)"),
          reason: Optional[str] = ReasonOpt, recorded_at: Optional[str] = RecordedOpt,
          id: Optional[str] = IdOpt) -> Any:
    """Record another name for a person or thing ("Mel" for "Melanie"): recall resolves it.

    Example: graphmem alias Melanie Mel -t conv-26
    """
    return store.alias(subject, alias, **given(source=source, valid_from=valid_from, reason=reason,
                                               recorded_at=recorded_at, id=id))
