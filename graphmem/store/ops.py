"""Every operation of the store, written once, with no I/O.

An operation is a *plan*: a generator that yields what it needs done and receives the result.

* :class:`~graphmem.store.queries.Call` — run one named query (an auto-commit read) and send back its
  rows;
* :class:`Tx` — run a unit of work (itself a generator of ``Call``) in one write transaction,
  retried as a whole on transient errors, and send back what it returns;
* :class:`Statement` — run one schema statement.

:class:`graphmem.store.client.GraphMem` runs plans with the sync driver and
:class:`graphmem.store.aio.AsyncGraphMem` with the async driver; neither holds any logic of its own.
The shaping of rows into answers (:class:`~graphmem.core.models.Answer`…) lives here too, beside the
plans that need it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import partial
from datetime import datetime
from typing import Any, Callable, Generator, Iterable, LiteralString, TypeVar, Union

from ..core.errors import GraphMemError, NotFoundError, ValidationError
from ..core.models import Answer, HistoryEntry, Why, WriteResult, parse_event, parse_time
from .projection import Expander, UnitOfWork, row_to_assertion, to_datetime
from .queries import Call, Steps
from ..core.scope import check_event_tenant
from ..core.temporal import View, resolve, resolve_many, standing_before, timeline

T = TypeVar("T")

__all__ = ["Plan", "Statement", "Tx", "apply", "apply_bulk", "apply_many", "as_of", "as_of_many", "drop_tenant",
           "ensure_schema", "events_page", "history", "install_schema", "many_valued", "parse_bulk", "path", "rebuild",
           "round_trip", "run_query", "view_times", "why"]


@dataclass(frozen=True)
class Tx:
    """Run ``work()`` in one write transaction. ``work`` makes a fresh generator per attempt."""

    work: Callable[[], Steps[Any]]
    name: str


@dataclass(frozen=True)
class Statement:
    """One schema statement (``cypher/schema.cypher``), run as is."""

    text: LiteralString


Plan = Generator[Union[Call, Tx, Statement], Any, T]


def run_query(query: str, tenant: str, /, **params: Any) -> Steps[list[dict[str, Any]]]:
    """Run one named query for ``tenant`` and return its rows: a step of a plan or of a unit of work."""
    # Times travel as ISO text (the read queries call datetime() on them): far cheaper to pack.
    params = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in params.items()}
    rows: list[dict[str, Any]] = yield Call(query, {"tenant": tenant, **params})
    return rows


# -- writes ---------------------------------------------------------------------------------------


def _mark_schema(version: str) -> Steps[None]:
    yield Call("admin/schema_mark", {"version": version})


def install_schema() -> Plan[None]:
    """Run every statement of schema.cypher (idempotent), then mark the database with its version."""
    from .queries import schema_statements, schema_version

    for statement in schema_statements():
        yield Statement(statement)
    version = schema_version()
    yield Tx(lambda: _mark_schema(version), "admin/schema_mark")


def ensure_schema() -> Plan[bool]:
    """Install the schema unless this database already carries its version's marker: one cheap
    read on a database set up before (a CLI call, a new client), the full install on a fresh one.
    Returns whether it installed."""
    from .queries import schema_version

    rows = yield Call("admin/schema_version", {"version": schema_version()})
    if rows and rows[0]["installed"]:
        return False
    yield from install_schema()
    return True


def _unit(tenant: str, events: list[Any], now: datetime, expand: Expander | None, start: int) -> Steps[list[WriteResult]]:
    unit = yield from UnitOfWork.open(tenant, now, expand)
    if len(events) > 1:
        yield from unit.prefetch(events)
    out = []
    for i, ev in enumerate(events):
        try:
            out.append((yield from unit.apply(ev)))
        except (ValidationError, NotFoundError) as err:
            if len(events) == 1:
                raise
            raise type(err)(f"event {start + i}: {err}") from err
    yield from unit.flush()
    return out


def stamp(ev: Any, actor: str | None) -> Any:
    """Every event names its actor (DESIGN.md §5): the client's, when the event gives none."""
    return ev.model_copy(update={"actor": actor}) if actor is not None and ev.actor is None else ev


def apply(tenant: str, event: Any, now: datetime, expand: Expander | None,
          actor: str | None = None) -> Plan[WriteResult]:
    """One event, one transaction. A refused event raises and writes nothing."""
    ev = stamp(parse_event(event), actor)
    check_event_tenant(tenant, ev.tenant)
    results: list[WriteResult] = yield Tx(lambda: _unit(tenant, [ev], now, expand, 0), f"apply {ev.op}")
    _count_writes(tenant, results)
    return results[0]


def _count_writes(tenant: str, results: list[WriteResult]) -> None:
    """``graphmem.writes`` (graphmem.store.observe): the events a committed transaction appended, by op."""
    from .observe import count_writes
    ops: dict[str, int] = {}
    for r in results:
        if not r.duplicate:
            ops[r.op] = ops.get(r.op, 0) + 1
    count_writes(tenant, ops)


def apply_many(tenant: str, events: Iterable[Any], clock: Callable[[], datetime],
               expand: Expander | None, actor: str | None = None) -> Plan[list[WriteResult]]:
    """Events in order, one transaction each; stops at the first refused event."""
    results = []
    for e in events:
        results.append((yield from apply(tenant, e, clock(), expand, actor)))
    return results


def parse_bulk(tenant: str, events: Iterable[Any], actor: str | None = None) -> list[Any]:
    """Validate every event of a bulk load before anything is written."""
    parsed = []
    for i, e in enumerate(events):
        try:
            ev = stamp(parse_event(e), actor)
        except GraphMemError as err:
            raise type(err)(f"event {i}: {err}") from err
        check_event_tenant(tenant, ev.tenant, f"event {i} of the bulk load")
        parsed.append(ev)
    return parsed


def apply_bulk(tenant: str, events: Iterable[Any], clock: Callable[[], datetime], expand: Expander | None,
               batch_size: int, progress: Callable[[int], None] | None,
               actor: str | None = None,
               prepare: Callable[[list[str]], None] | None = None) -> Plan[list[WriteResult]]:
    """Many events in order, ``batch_size`` to a transaction; each batch is atomic. ``prepare`` gets
    each batch's message texts first, so the extractor can parse them in one pass."""
    parsed = parse_bulk(tenant, events, actor)
    results: list[WriteResult] = []
    for start in range(0, len(parsed), batch_size):
        batch, now = parsed[start:start + batch_size], clock()
        if prepare is not None:
            yield from _prepare_new(tenant, batch, prepare)
        done: list[WriteResult] = yield Tx(partial(_unit, tenant, batch, now, expand, start), "apply_bulk")
        _count_writes(tenant, done)
        results.extend(done)
        if progress is not None:
            progress(len(batch))
    return results


def _prepare_new(tenant: str, batch: list[Any], prepare: Callable[[list[str]], None]) -> Plan[None]:
    """Parse ahead the batch's messages that are not stored yet: a re-imported transcript (the
    same ids) parses nothing. One read; if a message lands or goes meanwhile, the transaction still
    decides (an unparsed new message is parsed when it is drawn)."""
    new = [e for e in batch if e.op == "message" and e.drawn is None]
    if new:
        rows = yield from run_query("load/event_ids", tenant, ids=[f"message:{e.id}" for e in new])
        stored = {r["event_id"] for r in rows}
        new = [e for e in new if f"message:{e.id}" not in stored]
    prepare([e.text for e in new])


def _drop(query: str, tenant: str, batch: int) -> Steps[int]:
    rows = yield Call(query, {"tenant": tenant, "batch": batch})
    deleted: int = rows[0]["deleted"]
    return deleted


def drop_tenant(tenant: str, batch: int = 2_000) -> Plan[None]:
    """Delete everything a tenant has, ledger included (tests and evaluation)."""
    while (yield Tx(lambda: _drop("admin/drop_tenant", tenant, batch), "admin/drop_tenant")):
        pass


def round_trip() -> Plan[int]:
    """``RETURN 1`` as a read, through the same runner as every read: the latency floor."""
    rows: list[dict[str, Any]] = yield Call("admin/round_trip", {})
    one: int = rows[0]["one"]
    return one


def events_page(tenant: str, after: int, limit: int) -> Plan[list[dict[str, Any]]]:
    rows = yield from run_query("ledger/events", tenant, after=after, limit=limit)
    for r in rows:
        r["recorded_at"] = to_datetime(r["recorded_at"])
    return rows


def _replay(tenant: str, rows: list[dict[str, Any]], now: datetime, expand: Expander | None) -> Steps[None]:
    unit = yield from UnitOfWork.open(tenant, now, expand)
    # Segments are loaded as "not yet over" relative to this batch's first record time, not the
    # ledger's end: an expiry scheduled between them is still ahead of the replay.
    unit.last = to_datetime(rows[0]["recorded_at"])
    payloads = [json.loads(r["payload"]) for r in rows]
    yield from unit.prefetch(parse_event(p) for p in payloads if not p.get("erased") and p.get("op") != "erase")
    for row in rows:
        yield from unit.replay(row)
    yield from unit.flush(append=False)


def rebuild(tenant: str, clock: Callable[[], datetime], expand: Expander | None, batch: int) -> Plan[int]:
    """Drop the projection and replay the ledger from empty, ``batch`` events to a transaction.

    Replay uses each event's stored sequence number and record time, and the events a message
    drew (never the extractor), so the projection comes out identical.
    """
    while (yield Tx(lambda: _drop("admin/drop_projection", tenant, 2_000), "admin/drop_projection")):
        pass
    count, after = 0, 0
    while True:
        rows = yield from events_page(tenant, after, batch)
        if not rows:
            return count
        yield Tx(partial(_replay, tenant, rows, clock(), expand), "replay")
        count += len(rows)
        after = rows[-1]["seq"]


def sweep(tenant: str, clock: Callable[[], datetime], expand: Expander | None, batch: int = 500) -> Plan[int]:
    """Record, as ledger events, the expiry of every fact whose ``expires_at`` has come."""
    count = 0
    while True:
        now = clock()
        rows = yield from run_query("governance/due", tenant, now=now, limit=batch)
        if not rows:
            return count
        yield from apply(tenant, {"op": "expire", "facts": [r["uid"] for r in rows], "actor": "sweeper"}, now, expand)
        count += len(rows)


# -- reads ----------------------------------------------------------------------------------------


def _base(subject: str, topic: str, env: str | None, t: datetime, k: datetime) -> dict[str, Any]:
    return dict(subject=subject, topic=topic, env=env, valid_at=t, known_at=k)


def view_times(now: datetime, valid_at: Any, known_at: Any) -> tuple[datetime, datetime]:
    return (parse_time(valid_at) if valid_at is not None else now,
            parse_time(known_at) if known_at is not None else now)


def many_valued(tenant: str, topic: str) -> Plan[bool]:
    rows = yield from run_query("topic/get", tenant, name=topic)
    return bool(rows) and rows[0]["cardinality"] == "many"


def assertions(tenant: str, subject: str, topic: str, env: str | None) -> Plan[list[Any]]:
    rows = yield from run_query("fact/slot", tenant, subject=subject, topic=topic, env=env or "")
    return [row_to_assertion(r) for r in rows]


def answer_from_rows(rows: list[dict[str, Any]], many: bool, base: dict[str, Any]) -> Answer:
    if not rows:
        return Answer(**base, values=[] if many else None)
    first = rows[0]
    common = dict(source=first["source"], fact=first["fact"], authority=first["authority"],
                  status=first["status"], is_entity=bool(first["is_entity"]), author=first.get("author"),
                  valid_from=to_datetime(first["valid_from"]), valid_to=to_datetime(first["valid_to"]),
                  sources=[r["source"] for r in rows if r["source"]])
    if many:
        return Answer(**base, **common, values=[r["value"] for r in rows])
    if any(r["conflict"] for r in rows):
        return Answer(**base, **common, conflict=sorted({r["value"] for r in rows}, key=str))
    return Answer(**base, **common, value=first["value"])


def answer_from_resolutions(results: list[Any], many: bool, base: dict[str, Any]) -> Answer:
    results = [r for r in results if r.kind != "none"]
    if not results:
        return Answer(**base, values=[] if many else None)
    w = results[0].primary
    common = dict(source=w.source, fact=w.uid, authority=w.authority, status=w.status, author=w.author,
                  is_entity=w.is_entity, valid_from=w.valid_from, valid_to=w.valid_to,
                  sources=[x.source for r in results for x in r.winners if x.source])
    if many:
        return Answer(**base, **common, values=[r.value for r in results])
    r = results[0]
    if r.kind == "conflict":
        return Answer(**base, **common, conflict=sorted({v for v in r.values if v is not None}, key=str))
    return Answer(**base, **common, value=r.value)


def as_of(tenant: str, now: datetime, subject: str, topic: str, *, valid_at: Any = None, known_at: Any = None,
          env: str | None = None, session: str | None = None, include_candidates: bool = False) -> Plan[Answer]:
    """What holds for (subject, topic[, env]) at ``valid_at`` as known at ``known_at`` (both default now).

    The default view reads the materialised segments (``cypher/as_of.cypher``, one round trip);
    an L0 ``session`` or ``include_candidates`` resolves the slot's assertions with the same rules.
    """
    t, k = view_times(now, valid_at, known_at)
    base = _base(subject, topic, env, t, k)
    if session is None and not include_candidates:
        rows = yield from run_query("as_of", tenant, subject=subject, topic=topic, env=env or "", valid_at=t, known_at=k)
        many = rows[0]["cardinality"] == "many"
        answer = answer_from_rows([r for r in rows if r["fact"] is not None], many, base)
        expired = [(x["fact"], x["value"], to_datetime(x["expires_at"])) for x in rows[0]["expired"] if x["fact"]]
        return _with_expiry_notes(answer, expired)
    many = yield from many_valued(tenant, topic)
    view = View(known_at=k, session=session, include_candidates=include_candidates)
    slot = yield from assertions(tenant, subject, topic, env)
    results = resolve_many(slot, t, view) if many else [resolve(slot, t, view, subject)]
    expired = [(a.uid, a.value, a.expires_at) for a in slot
               if a.kind == "set" and a.expires_at is not None and a.expires_at <= k and a.recorded_at <= k
               and a.speaks_at(t) and not (a.retracted_at and a.retracted_at <= a.expires_at)
               and not (a.rejected_at and a.rejected_at <= a.expires_at)]
    return _with_expiry_notes(answer_from_resolutions(results, many, base), expired)


def as_of_many(tenant: str, now: datetime, slots: list[tuple[str, str, str | None]], *, valid_at: Any = None,
               known_at: Any = None) -> Plan[list[Answer]]:
    """:func:`as_of`'s default view for several (subject, topic, env) slots in one round trip, in
    the order given — recall asks what holds now for every message and old fact it shows."""
    if not slots:
        return []
    t, k = view_times(now, valid_at, known_at)
    rows = yield from run_query("as_of_many", tenant, slots=[{"subject": s, "topic": tp, "env": e or ""}
                                                         for s, tp, e in slots], valid_at=t, known_at=k)
    out = []
    for (subject, topic, env), r in zip(slots, rows):
        answer = answer_from_rows(r["segments"], r["cardinality"] == "many", _base(subject, topic, env, t, k))
        expired = [(x["fact"], x["value"], to_datetime(x["expires_at"])) for x in r["expired"] if x["fact"]]
        out.append(_with_expiry_notes(answer, expired))
    return out


def _with_expiry_notes(answer: Answer, expired: list[tuple[str, Any, Any]]) -> Answer:
    """Say what an expiry changed: the value that resumed after it, or that nothing holds since."""
    live = set(answer.values or []) | set(answer.conflict or []) | ({answer.value} if answer.value else set())
    notes = []
    for uid, value, at in sorted(expired, key=lambda x: (x[2], x[0])):
        if value in live:
            continue
        when = at.isoformat() if at else "?"
        if answer.holds:
            notes.append(f"resumed: {value!r} ({uid}) expired at {when}; what it had replaced holds again")
        else:
            notes.append(f"expired: {value!r} ({uid}) expired at {when}; nothing else holds")
    return answer.model_copy(update={"notes": notes}) if notes else answer


def history(tenant: str, now: datetime, subject: str, topic: str, *, env: str | None = None, known_at: Any = None,
            session: str | None = None, include_candidates: bool = False) -> Plan[list[HistoryEntry]]:
    """The valid-time timeline as known at ``known_at``: one entry per stretch, in order."""
    _, k = view_times(now, None, known_at)
    if session is None and not include_candidates:
        rows = yield from run_query("history", tenant, subject=subject, topic=topic, env=env or "", known_at=k)
        segs = [(to_datetime(r["valid_from"]), to_datetime(r["valid_to"]), r["value"], bool(r["conflict"]),
                 r["source"], r["fact"]) for r in rows]
    else:
        view = View(known_at=k, session=session, include_candidates=include_candidates)
        slot = yield from assertions(tenant, subject, topic, env)
        many = yield from many_valued(tenant, topic)
        by_uid = {a.uid: a for a in slot}
        segs = [(s.valid_from, s.valid_to, by_uid[s.fact].value, s.conflict, by_uid[s.fact].source, s.fact)
                for s in timeline(slot, view, subject, many=many)]
    entries = history_entries(segs)
    # Facts that expired by known_at no longer answer, but the history says they were there.
    slot = yield from assertions(tenant, subject, topic, env)
    for a in slot:
        if a.kind == "set" and a.expires_at is not None and a.expires_at <= k and a.recorded_at <= k \
                and not (a.retracted_at and a.retracted_at <= k) and not (a.rejected_at and a.rejected_at <= k):
            entries.append(HistoryEntry(value=a.value, valid_from=a.valid_from, valid_to=a.valid_to,
                                        source=a.source, fact=a.uid, expired=True))
    return sorted(entries, key=lambda e: (e.valid_from, e.expired))


def history_entries(segs: list[tuple[Any, ...]]) -> list[HistoryEntry]:
    """Group segment rows (a conflict comes as several rows of one stretch) into entries."""
    grouped: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
    for s in sorted(segs, key=lambda s: (s[0], str(s[2]))):
        grouped.setdefault((s[0], s[1], s[3]), []).append(s)
    out: list[HistoryEntry] = []
    for (start, end, conflict), rows in grouped.items():
        if conflict:
            out.append(HistoryEntry(conflict=sorted({r[2] for r in rows}), valid_from=start, valid_to=end,
                                    source=rows[0][4], fact=rows[0][5]))
        else:
            out.extend(HistoryEntry(value=r[2], valid_from=start, valid_to=end, source=r[4], fact=r[5]) for r in rows)
    return out


def history_values(entries: list[HistoryEntry]) -> list[str]:
    """FORMAT.md's history: values in the order they became valid, consecutive repeats merged.

    Only repeats that touch merge: a value that holds again after a stretch where nothing held
    (a revoke, the end of a temporary value) appears again — A, nothing, A gives [A, A].
    """
    out: list[str] = []
    end: datetime | None = None  # where the last listed value's stretch ends (None: open-ended)
    for entry in entries:
        if entry.expired:
            continue
        label = entry.value if entry.conflict is None else " | ".join(entry.conflict)
        if label is None:
            continue
        if out and out[-1] == label and (end is None or end >= entry.valid_from):
            end = None if end is None or entry.valid_to is None else max(end, entry.valid_to)
            continue
        out.append(label)
        end = entry.valid_to
    return out


def why(tenant: str, now: datetime, subject: str, topic: str, *, valid_at: Any = None, known_at: Any = None,
        env: str | None = None, session: str | None = None, include_candidates: bool = False) -> Plan[Why]:
    """The source behind the answer, and the change point (and its source) it replaced."""
    t, k = view_times(now, valid_at, known_at)
    if session is None and not include_candidates:
        rows = yield from run_query("why", tenant, subject=subject, topic=topic, env=env or "", valid_at=t, known_at=k)
        if not rows:
            return Why(subject=subject, topic=topic)
        r = rows[0]
        conflict = sorted({x["value"] for x in rows}) if any(x["conflict"] for x in rows) else None
        return Why(subject=subject, topic=topic, value=None if conflict else r["value"], conflict=conflict,
                   source=r["source"], fact=r["fact"], supersedes_source=r["supersedes_source"],
                   supersedes_fact=r["supersedes_fact"], supersedes_value=r["supersedes_value"],
                   quoted_by=r["quoted_by"], text=r["text"])
    view = View(known_at=k, session=session, include_candidates=include_candidates)
    slot = yield from assertions(tenant, subject, topic, env)
    res = resolve(slot, t, view, subject)
    if res.kind == "none" or res.primary is None:
        return Why(subject=subject, topic=topic)
    w = res.primary
    prev = standing_before(slot, w.valid_from, view, subject, exclude=w.uid).primary
    return Why(subject=subject, topic=topic, value=res.value,
               conflict=[v for v in res.values if v] if res.kind == "conflict" else None,
               source=w.source, fact=w.uid, supersedes_source=prev.source if prev else None,
               supersedes_fact=prev.uid if prev else None, supersedes_value=prev.value if prev else None)


def path(tenant: str, now: datetime, start: str, topics: list[str], *, valid_at: Any = None, known_at: Any = None,
         env: str | None = None, session: str | None = None, include_candidates: bool = False) -> Plan[Answer]:
    """Follow entity-valued topics from ``start``, each hop answered at the same (t, k)."""
    if not topics:
        raise ValidationError("path needs at least one topic")
    t, k = view_times(now, valid_at, known_at)
    base = _base(start, ".".join(topics), env, t, k)
    if session is None and not include_candidates:
        rows = yield from run_query("path", tenant, start=start, path=list(topics), env=env or "", valid_at=t, known_at=k)
        many = yield from many_valued(tenant, topics[-1])
        return answer_from_rows(rows, many, base)
    subject = start
    for topic in topics[:-1]:
        hop = yield from as_of(tenant, now, subject, topic, valid_at=t, known_at=k, env=env, session=session,
                               include_candidates=include_candidates)
        if hop.value is None or not hop.is_entity:
            return Answer(**base)
        subject = hop.value
    last = yield from as_of(tenant, now, subject, topics[-1], valid_at=t, known_at=k, env=env, session=session,
                            include_candidates=include_candidates)
    return last.model_copy(update=base)
