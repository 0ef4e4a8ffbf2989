"""Erase in two steps: a request that holds content back at once (reversible), and the
irreversible erase that only a person's confirmation performs (docs/design.md §5: a model never erases
irreversibly on its own).

* :func:`request_erase` finds what an erase of a subject (or a source) would remove — the facts
  about it or with it as value, the facts drawn from its sources — and records an
  ``erase_request`` ledger event (who asked, why, what). Those facts stop taking part from that
  record time on, in every view and in recall, exactly like a retract — but reversibly.
* :func:`cancel_erase` records an ``erase_cancel``: the facts take part again from then on.
* :func:`confirm_erase` performs the irreversible erase of :mod:`graphmem.governance.governance` (redacted
  ledger entries, a content-free tombstone naming the request and the confirming person), which
  removes the request's own content too.

The MCP server's ``forget`` files a request unless it was started with ``--allow-erase``; the
CLI's ``graphmem erase --confirm REQUEST`` and ``GraphMem.confirm_erase`` confirm one.
"""

from __future__ import annotations

import json
import uuid
from typing import Any, Callable

from ..core.errors import NotFoundError, ValidationError
from .governance import erase, erase_targets
from ..store.ops import Plan, run_query, apply
from ..store.projection import Expander

__all__ = ["cancel_erase", "confirm_erase", "erase_request", "request_erase"]


def request_erase(tenant: str, *, subject: str | None, source: str | None, actor: str, reason: str | None,
                  now: Any, expand: Expander | None) -> Plan[dict[str, Any]]:
    """File an erase request and hold back what it would remove; returns the request."""
    if (subject is None) == (source is None):
        raise ValidationError("an erase request needs exactly one of subject= and source=")
    facts, sources = yield from erase_targets(tenant, subject, source)
    if sources:
        facts.update(r["uid"] for r in (yield from run_query("governance/source_facts", tenant, sources=sorted(sources))))
    rid = f"er-{uuid.uuid4().hex[:12]}"
    event = {"op": "erase_request", "id": rid, "facts": sorted(facts), "sources": sorted(sources),
             "actor": actor, "reason": reason}
    event.update({"subject": subject} if subject is not None else {"source_id": source})
    result = yield from apply(tenant, event, now, expand, actor)
    return {"request": rid, "seq": result.seq, "kind": "subject" if subject is not None else "source",
            "subject": subject, "source": source, "asked_by": actor, "reason": reason,
            "would_remove": {"facts": sorted(facts), "sources": sorted(sources)},
            "status": "pending: held back from answers and recall; a person confirms with "
                      f"'graphmem erase --confirm {rid}' (or cancels it)"}


def _pending(tenant: str, request: str) -> Plan[dict[str, Any]]:
    rows = yield from run_query("governance/erase_request", tenant, request=request, before=2**62)
    if not rows or rows[0]["op"] != "erase_request":
        raise NotFoundError(f"unknown erase request {request!r}", kind="erase request", id=request)
    if rows[0]["closed"]:
        raise ValidationError(f"erase request {request!r} was already {rows[0]['closed']}")
    return {**rows[0], "payload": json.loads(rows[0]["payload"])}


def erase_request(tenant: str, request: str) -> Plan[dict[str, Any]]:
    """A pending request as filed: what it would remove, who asked, why."""
    r = yield from _pending(tenant, request)
    p = r["payload"]
    return {"request": request, "subject": p.get("subject"), "source": p.get("source_id"), "asked_by": r["actor"],
            "reason": r["reason"], "recorded_at": r["recorded_at"],
            "would_remove": {"facts": p.get("facts", []), "sources": p.get("sources", [])}}


def confirm_erase(tenant: str, request: str, *, actor: str, reason: str | None, clock: Callable[[], Any],
                  expand: Expander | None) -> Plan[dict[str, Any]]:
    """A person confirms a pending request: the irreversible erase, its tombstone naming the request."""
    r = yield from _pending(tenant, request)
    p = r["payload"]
    why = f"confirms erase request {request}" + (f": {reason}" if reason else "")
    out = yield from erase(tenant, subject=p.get("subject"), source=p.get("source_id"), actor=actor, reason=why,
                           clock=clock, expand=expand, request=request)
    return {**out, "request": request, "asked_by": r["actor"], "confirmed_by": actor}


def cancel_erase(tenant: str, request: str, *, actor: str, reason: str | None, now: Any,
                 expand: Expander | None) -> Plan[dict[str, Any]]:
    """Withdraw a pending request: what it held back takes part again from now on."""
    yield from _pending(tenant, request)
    result = yield from apply(tenant, {"op": "erase_cancel", "request": request, "actor": actor, "reason": reason},
                              now, expand, actor)
    return {"request": request, "seq": result.seq, "status": "cancelled", "restored": result.facts}
