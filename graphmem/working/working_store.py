"""Working memory's plans: every step is a ``working`` ledger event applied through the normal write
path (:class:`~graphmem.store.projection.UnitOfWork`: tenant lock, record time, hash chain), and the
projection (``WorkingSession`` / ``WorkingItem`` nodes, :mod:`graphmem.store.projection.working`) is
only what those events say, so ``rebuild`` gives it back and ``erase`` can take it away.

Budget decisions are made inside the write transaction, after the tenant's ledger lock: two agents
adding to one session at once cannot both squeeze past the budget.
"""

from __future__ import annotations

import json
import re
import uuid
from datetime import datetime
from typing import Any, Callable

from ..core.errors import NotFoundError, SessionClosedError, ValidationError
from ..core.models import WriteResult, parse_event
from ..store.ops import Plan, Tx, run_query
from ..store.projection import UnitOfWork, to_datetime
from ..store.queries import Steps
from .working_budget import decide, item_tokens

__all__ = ["add", "checkpoint", "erase_evictions", "erase_targets", "item_of_source",
           "item_source_id", "items", "live_items", "record", "resume_state", "session_row", "sessions", "use",
           "wm_id"]


def _item(row: dict[str, Any]) -> Any:
    from .working import WorkingItem
    return WorkingItem(**{**row, "created_at": to_datetime(row["created_at"]),
                          "last_used_at": to_datetime(row["last_used_at"]), "evicted_at": to_datetime(row["evicted_at"]),
                          "claim": json.loads(row["claim"]) if row.get("claim") else None,
                          "cites": row.get("cites") or [], "covers": row.get("covers") or [],
                          "temporary": bool(row.get("temporary"))})


def _policy(row: dict[str, Any] | None) -> Any:
    from .working import WorkingPolicy
    return WorkingPolicy.model_validate_json(row["policy"]) if row and row.get("policy") else None


def _event(session: str, action: str, detail: dict[str, Any], actor: str, id: str | None = None) -> Any:
    ev: dict[str, Any] = {"op": "working", "action": action, "session": session, "detail": detail, "actor": actor}
    if id is not None:
        ev["id"] = id
    return parse_event(ev)


def items(tenant: str, session: str) -> Plan[list[Any]]:
    """Every item of the session, evicted ones included (``evicted_at`` set), in order."""
    rows = yield from run_query("working/items", tenant, session=session)
    return [_item(r) for r in rows]


def live_items(tenant: str, session: str) -> Plan[list[Any]]:
    """The items in the session's working set now (what context() shows first)."""
    found = yield from items(tenant, session)
    return [i for i in found if i.evicted_at is None]


def session_row(tenant: str, session: str) -> Plan[dict[str, Any] | None]:
    rows = yield from run_query("working/session", tenant, session=session)
    return rows[0] if rows else None


# -- writes ---------------------------------------------------------------------------------------


def _open(unit: UnitOfWork, session: str, policy: Any | None, actor: str) -> Steps[tuple[Any, list[Any], Any]]:
    """Inside the transaction: the session's row, its items, and the policy in force (an ``open``
    event is queued when the session is new or the caller gives another policy)."""
    rows = yield from unit.query("working/session", session=session)
    row = rows[0] if rows else None
    if row is not None and row["status"] == "closed":
        raise SessionClosedError(f"working session {session!r} is closed; start another session")
    found = [_item(r) for r in (yield from unit.query("working/items", session=session))]
    stored = _policy(row)
    from .working import WorkingPolicy
    opening = None
    if stored is None or (policy is not None and policy != stored):
        stored = policy or WorkingPolicy()
        opening = _event(session, "open", {"policy": stored.model_dump()}, actor)
    return stored, found, opening


def _add_work(tenant: str, session: str, spec: dict[str, Any], policy: Any | None, now: datetime,
              actor: str) -> Steps[dict[str, Any]]:
    unit = yield from UnitOfWork.open(tenant, now, None)
    eff, found, opening = yield from _open(unit, session, policy, actor)
    same = next((i for i in found if i.id == spec["id"]), None)
    live = [i for i in found if i.evicted_at is None]
    if same is not None:  # a retried add (a resumed agent): nothing new
        return {"item": same, "duplicate": True, "used": sum(i.tokens for i in live), "policy": eff,
                "warning": None, "evicted": [], "summary": None, "events": 0}
    for cited in spec["cites"]:
        if cited not in {i.id for i in found}:
            raise NotFoundError(f"item cites {cited!r}, which is not an item of session {session!r}",
                                kind="item", id=cited)
    spec["tokens"] = item_tokens(spec["type"], spec["author"], spec["text"])
    if spec["tokens"] > eff.budget_tokens:
        raise ValidationError(f"the item needs {spec['tokens']} tokens, more than the session's whole "
                              f"{eff.budget_tokens}-token budget; shorten it or raise the budget")
    d = decide(live, spec["tokens"], eff)
    # the summary is written before the new item, so a later summary reads older text first
    events = [opening] if opening else []
    summary_id = None
    if d.summary_text is not None:
        summary_id = f"sum-{uuid.uuid4().hex[:10]}"
        covers: list[str] = []
        for i in live:
            if i.id in d.replaces:
                covers += (i.covers or [i.id]) if i.type == "summary" else [i.id]
        events.append(_event(session, "compress", {
            "id": summary_id, "type": "summary", "role": "system", "author": "graphmem", "text": d.summary_text,
            "importance": max([i.importance for i in live if i.id in d.replaces] + [0.5]),
            "tokens": d.summary_tokens, "cites": d.replaces, "covers": covers, "replaces": d.replaces}, actor))
    events.append(_event(session, "add", spec, actor, "wm:" + wm_id(session, spec["id"])))
    if d.evict:
        events.append(_event(session, "evict", {"items": d.evict, "reason": "budget"}, actor))
    for ev in events:
        yield from unit.apply(ev)
    yield from unit.flush()
    rows = yield from unit.query("working/items", session=session)
    by_id = {r["id"]: _item(r) for r in rows}
    return {"item": by_id[spec["id"]], "duplicate": False, "used": d.used_after, "policy": eff,
            "warning": d.warning, "evicted": d.evict, "summary": by_id.get(summary_id or ""),
            "used_with_new": d.used_with_new, "events": len(events)}


def add(tenant: str, session: str, spec: dict[str, Any], policy: Any | None, now: datetime,
        actor: str) -> Plan[dict[str, Any]]:
    """Add one item, and in the same transaction compress or evict what the budget needs."""
    from ..store.observe import count_writes
    out: dict[str, Any] = yield Tx(lambda: _add_work(tenant, session, dict(spec), policy, now, actor), "working add")
    count_writes(tenant, {"working": out["events"]})  # committed: counted once
    return out


def _simple_work(tenant: str, session: str, action: str, detail: dict[str, Any], now: datetime, actor: str,
                 id: str | None, need_items: list[str], only_open: bool = False) -> Steps[Any]:
    unit = yield from UnitOfWork.open(tenant, now, None)
    if only_open:  # a read's record: a session closed (or gone) since the read records nothing
        rows = yield from unit.query("working/session", session=session)
        if not rows or rows[0]["status"] == "closed":
            return None, 0
    _eff, found, opening = yield from _open(unit, session, None, actor)
    known = {i.id for i in found}
    missing = [x for x in need_items if x not in known]
    if missing:
        raise NotFoundError(f"no item {missing[0]!r} in working session {session!r}", kind="item", id=missing[0])
    result, written = None, 0
    for ev in ([opening] if opening else []) + [_event(session, action, detail, actor, id)]:
        result = yield from unit.apply(ev)
        written += not result.duplicate
    yield from unit.flush()
    return result, written


def record(tenant: str, session: str, action: str, detail: dict[str, Any], now: datetime, actor: str,
           id: str | None = None, need_items: list[str] | None = None, only_open: bool = False) -> Plan[Any]:
    """One working event (use, checkpoint, context, close) in its own transaction. ``only_open``:
    write it only if the session is open then, else write nothing and return None."""
    from ..store.observe import count_writes
    result, written = yield Tx(lambda: _simple_work(tenant, session, action, detail, now, actor, id,
                                                    need_items or [], only_open), f"working {action}")
    count_writes(tenant, {"working": written})  # committed: counted once
    return result


def use(tenant: str, session: str, ids: list[str], now: datetime, actor: str) -> Plan[WriteResult]:
    if not ids:
        raise ValidationError("use needs at least one item id")
    result: WriteResult = yield from record(tenant, session, "use", {"items": ids}, now, actor, need_items=ids)
    return result


def _escape(part: str) -> str:
    return part.replace("%", "%25").replace(":", "%3A").replace("/", "%2F")


def _unescape(part: str) -> str:
    return part.replace("%2F", "/").replace("%3A", ":").replace("%25", "%")


def wm_id(*parts: str) -> str:
    """An id built from a session and item ids, unambiguous whatever they contain: each part has its
    '%', ':' and '/' escaped, so session "a/b" item "c" and session "a" item "b/c", or an item named
    "checkpoint:1" and checkpoint "1", never meet (an idempotency id that met another would drop a
    write as a duplicate)."""
    return ":".join(_escape(p) for p in parts)


def item_source_id(session: str, item: str) -> str:
    """The source id the end gate gives a working item it keeps: "session/item", each part escaped
    as in :func:`wm_id`; :func:`item_of_source` reads it back."""
    return f"{_escape(session)}/{_escape(item)}"


def item_of_source(source: str) -> tuple[str, str] | None:
    """(session, item) of a source id made by :func:`item_source_id`; None for any other id."""
    if "/" not in source:
        return None
    session, item = source.split("/", 1)
    return _unescape(session), _unescape(item)


def checkpoint(tenant: str, session: str, state: dict[str, Any], now: datetime, actor: str,
               id: str | None) -> Plan[WriteResult]:
    result: WriteResult = yield from record(tenant, session, "checkpoint", {"state": state}, now, actor,
                                            "wm-checkpoint:" + wm_id(session, id) if id else None)
    return result


def resume_state(tenant: str, session: str) -> Plan[dict[str, Any]]:
    row = yield from session_row(tenant, session)
    found = yield from items(tenant, session)
    return {"row": row, "items": found, "policy": _policy(row)}


def sessions(tenant: str, status: str | None, limit: int) -> Plan[list[dict[str, Any]]]:
    """The tenant's working sessions, most recently active first."""
    if status not in (None, "open", "closed"):
        raise ValidationError("status is 'open', 'closed' or None")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10_000:
        raise ValidationError("limit must be an integer from 1 to 10000")
    rows = yield from run_query("working/open_sessions", tenant, status=status, limit=limit)
    return rows


def _names(subject: str | None) -> Callable[[str], bool]:
    """Whether a text names ``subject``: as a word (any case) — not inside a longer word of ASCII
    letters, digits or '_' ("lin" in "Lin's flight", not in "linen"); a subject in a script written
    without spaces (林) wherever it appears."""
    if not subject:
        return lambda _text: False
    word = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(subject) + r"(?![A-Za-z0-9_])", re.IGNORECASE)
    return lambda text: bool(word.search(text))


def _strings(value: Any) -> list[str]:
    """Every key and string (or number) value of a JSON value."""
    if isinstance(value, dict):
        return [str(k) for k in value] + [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [] if value is None or isinstance(value, bool) else [str(value)]


def erase_targets(tenant: str, subject: str | None, sources: list[str]) -> Steps[dict[str, Any]]:
    """What an erase does to working memory (inside the erase's transaction, graphmem.governance.governance):

    * the items to redact — written by the subject; whose ``claim`` names it (its subject or its
      value); a tool result whose source is erased; an item the end gate turned into an erased
      source — and every summary that quotes one of them (``covers`` it);
    * the checkpoints to redact — a checkpoint whose state names the subject as a word (a key or a
      value, any case) or cites an erased source (a string equal to its id);
    * ``evict``: per session, the items those summaries had replaced and that are not erased, so
      the erase keeps them replaced instead of bringing them back over the budget.

    Returns ``{"events": [ledger rows to redact], "evict": {session: [item ids]}}``."""
    named = _names(subject)
    keys = [{"session": session, "uid": uid} for session, uid in filter(None, map(item_of_source, sources))]
    hit: list[dict[str, str]] = []
    for r in (yield from run_query("working/erase_items", tenant, subject=subject, sources=sources, keys=keys)):
        claim = json.loads(r["claim"]) if r["claim"] else None
        if ((subject is not None and r["author"] == subject) or r["source"] in sources
                or {"session": r["session"], "uid": r["uid"]} in keys
                or (subject is not None and claim is not None
                    and subject in (claim.get("subject"), str(claim.get("value"))))):
            hit.append({"session": r["session"], "uid": r["uid"]})
    seqs: set[int] = set()
    evict: dict[str, list[str]] = {}
    if hit:
        rows = yield from run_query("working/erase_covering", tenant, keys=hit)
        gone = {(r["session"], r["uid"]) for r in rows}
        seqs.update(r["seq"] for r in rows)
        for r in rows:
            if r["type"] == "summary":
                keep = evict.setdefault(r["session"], [])
                keep += [c for c in r["cites"] if (r["session"], c) not in gone and c not in keep]
    wanted = set(sources)
    for r in (yield from run_query("working/erase_checkpoints", tenant, subject=subject, sources=sources)):
        ev = json.loads(r["payload"])
        if ev.get("action") != "checkpoint":
            continue
        found = _strings((ev.get("detail") or {}).get("state"))
        if any(named(x) or x in wanted for x in found):
            seqs.add(r["seq"])
    events = (yield from run_query("working/erase_events", tenant, seqs=sorted(seqs))) if seqs else []
    return {"events": events, "evict": {k: v for k, v in evict.items() if v}}


def erase_evictions(evict: dict[str, list[str]], actor: str | None) -> list[Any]:
    """The ``evict`` events that keep what an erased summary had replaced out of the working set."""
    return [parse_event({"op": "working", "action": "evict", "session": session, "actor": actor,
                         "detail": {"items": ids, "reason": "summary erased"}})
            for session, ids in sorted(evict.items())]
