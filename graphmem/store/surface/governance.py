"""The public governance operations: erase (at once, or requested and then confirmed or cancelled),
the ledger's verification and audit, working sessions and the memory's stats
(:mod:`graphmem.governance`, :mod:`graphmem.working`); see :mod:`graphmem.store.surface`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from .. import observe
from ..ops import Plan
from .common import When

if TYPE_CHECKING:
    from ..api import StoreApi
    from ...governance.stats import Stats

__all__ = ["erase", "request_erase", "erase_request", "confirm_erase", "cancel_erase", "verify", "audit", "working_sessions", "stats"]


def erase(mem: StoreApi, *, subject: str | None = None, source: str | None = None, actor: str | None = None,
          reason: str | None = None) -> Plan[dict[str, Any]]:
    """Right to be forgotten: remove a subject's or a source's content everywhere, keep a
    content-free tombstone in the ledger, rebuild the projection (graphmem.governance.governance).

    >>> mem.erase(subject="caroline", reason="user request")
    """
    from ...governance.governance import erase as plan
    return observe.observed_plan("erase", mem.tenant, plan(
        mem.tenant, subject=subject, source=source, actor=actor or mem.actor, reason=reason, clock=mem._clock,
        expand=mem._extract), observe.erase_summary)


def request_erase(mem: StoreApi, *, subject: str | None = None, source: str | None = None,
                  reason: str | None = None) -> Plan[dict[str, Any]]:
    """File an erase request: what it would remove stops taking part at once (reversibly);
    nothing is erased until a person confirms (graphmem.governance.erasure). Returns the request.

    >>> mem.request_erase(subject="caroline", reason="asked to be forgotten")["request"]
    """
    from ...governance.erasure import request_erase as plan
    return plan(mem.tenant, subject=subject, source=source, actor=mem.actor, reason=reason, now=mem._clock(),
                expand=mem._extract)


def erase_request(mem: StoreApi, request: str) -> Plan[dict[str, Any]]:
    """A pending erase request: what it would remove, who asked, why.

    >>> mem.erase_request("er-1")["would_remove"]["facts"]
    """
    from ...governance.erasure import erase_request as plan
    return plan(mem.tenant, request)


def confirm_erase(mem: StoreApi, request: str, *, reason: str | None = None) -> Plan[dict[str, Any]]:
    """Confirm a pending erase request, as this client's actor: the irreversible erase.

    >>> mem.confirm_erase("er-1", reason="verified identity")
    """
    from ...governance.erasure import confirm_erase as plan
    return observe.observed_plan("erase", mem.tenant, plan(
        mem.tenant, request, actor=mem.actor, reason=reason, clock=mem._clock, expand=mem._extract),
        observe.erase_summary, {"request": request})


def cancel_erase(mem: StoreApi, request: str, *, reason: str | None = None) -> Plan[dict[str, Any]]:
    """Withdraw a pending erase request: what it held back takes part again from now on.

    >>> mem.cancel_erase("er-1", reason="filed by mistake")
    """
    from ...governance.erasure import cancel_erase as plan
    return plan(mem.tenant, request, actor=mem.actor, reason=reason, now=mem._clock(), expand=mem._extract)


def verify(mem: StoreApi, *, replay: bool = True) -> Plan[dict[str, Any]]:
    """Check this tenant's hash-chained ledger and (``replay``) that the projection is what a
    replay of the ledger gives (graphmem.store.chain); returns ok, the first break, the head hash.

    >>> mem.verify()["ok"]
    True
    """
    from ..chain import verify as plan
    return plan(mem.tenant, mem._clock, mem._extract, replay=replay)


def audit(mem: StoreApi, *, since: When = "1970-01-01", until: When | None = None,
          subject: str | None = None) -> Plan[list[dict[str, Any]]]:
    """Ledger entries recorded in [since, until): op, time, actor, reason, facts, what they replaced.

    >>> mem.audit(since="2024-03-01", subject="deploy")
    """
    from ...governance.governance import audit as plan
    from ...core.fields import parse_time
    until_t = parse_time(until) if until is not None else mem._clock()
    return plan(mem.tenant, since=parse_time(since).isoformat(), until=until_t.isoformat(), subject=subject)


def working_sessions(mem: StoreApi, *, status: Literal["open", "closed"] | None = None,
                     limit: int = 100) -> Plan[list[dict[str, Any]]]:
    """This tenant's working sessions (``status`` open or closed), most recently active first.

    >>> mem.working_sessions(status="open")
    """
    from ...working.working_store import sessions
    return sessions(mem.tenant, status, limit)


def stats(mem: StoreApi, *, since: When | None = None) -> Plan[Stats]:
    """How this tenant's memory behaves (graphmem.governance.stats): writes by op and author since ``since``,
    candidates waiting, open conflicts, stale summaries, open working sessions, and from recorded
    outcomes the task success rate, repeated failures, wrong-memory rate and tokens per context.

    >>> mem.stats(since="2024-03-01").candidates_waiting
    """
    from ...governance.stats import stats as plan
    return plan(mem.tenant, mem._clock(), since)
