"""The tamper-evident ledger: every event stores the digest of its content and a hash chained to
the previous event's, so editing, removing or reordering an entry breaks the chain from there on.

``digest = sha256(canonical JSON of seq, op, recorded_at, actor, reason, payload)`` and
``hash = sha256(previous hash + digest)`` (the first event chains to ``GENESIS``). An erase
replaces a redacted event's payload with a tombstone but keeps its digest, so the chain of an
erased tenant still verifies; only a redacted event's content can no longer be checked (it is
gone, by design), while its place, time, actor and digest still are.

:func:`verify` walks a tenant's ledger, recomputes every digest (except tombstones') and every
link, and reports the first break; it then replays the ledger into a fresh projection and
compares a fingerprint of the projection before and after (the projection must be what the
ledger says). It detects edits made behind graphmem's back — by anyone who can write to the
database but cannot also recompute every later hash *and* the head's; it is not a signature:
someone with write access who rewrites the whole chain consistently is not detected (pin the
head hash elsewhere — ``verify`` prints it — to catch that).
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any, Callable

from .ops import Plan, run_query, events_page, rebuild
from .projection import Expander, to_datetime

__all__ = ["GENESIS", "digest", "link", "verify"]

GENESIS = "0" * 64


def _time(value: Any) -> str:
    t = to_datetime(value)
    return t.isoformat(timespec="microseconds") if t is not None else ""


def digest(seq: int, op: str, recorded_at: Any, actor: str | None, reason: str | None, payload: str) -> str:
    """The digest of one event's content (what an erase later redacts)."""
    text = json.dumps({"seq": seq, "op": op, "recorded_at": _time(recorded_at), "actor": actor, "reason": reason,
                       "payload": payload}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def link(previous: str | None, event_digest: str) -> str:
    return hashlib.sha256(((previous or GENESIS) + event_digest).encode()).hexdigest()


def _fingerprint(tenant: str) -> Plan[str]:
    rows = yield from run_query("ledger/fingerprint", tenant)
    h = hashlib.sha256()
    for line in sorted(json.dumps(r["line"], sort_keys=True, default=str) for r in rows):
        h.update(line.encode())
    return h.hexdigest()


def verify(tenant: str, clock: Callable[[], datetime], expand: Expander | None, *,
           replay: bool = True) -> Plan[dict[str, Any]]:
    """Check the tenant's chain and (``replay``) its projection against a replay of the ledger."""
    previous: str | None = None
    count, after = 0, 0
    first_break: dict[str, Any] | None = None
    while first_break is None:
        rows = yield from events_page(tenant, after, 1000)
        if not rows:
            break
        for r in rows:
            count += 1
            erased = json.loads(r["payload"]).get("erased", False) if r["payload"] else False
            if r.get("hash") is None:
                first_break = {"seq": r["seq"], "problem": "no hash: written before the chain, or its hash was removed"}
                break
            if r["seq"] != count:
                first_break = {"seq": r["seq"], "problem": f"sequence gap: expected {count}"}
                break
            if not erased and digest(r["seq"], r["op"], r["recorded_at"], r["actor"], r["reason"],
                                     r["payload"]) != r["digest"]:
                first_break = {"seq": r["seq"], "problem": "content does not match its digest (edited)"}
                break
            if link(previous, r["digest"]) != r["hash"]:
                first_break = {"seq": r["seq"], "problem": "hash does not chain to the previous event"}
                break
            previous = r["hash"]
        after = rows[-1]["seq"]
    head = yield from run_query("ledger/head", tenant)
    head_hash = head[0]["last_hash"] if head else None
    if first_break is None and head_hash != previous:
        first_break = {"seq": count, "problem": "the ledger head's hash is not the last event's (entries removed?)"}
    out: dict[str, Any] = {"tenant": tenant, "events": count, "chain_ok": first_break is None,
                           "first_break": first_break, "head_hash": head_hash}
    if replay:
        before = yield from _fingerprint(tenant)
        yield from rebuild(tenant, clock, expand, 2000)
        after_fp = yield from _fingerprint(tenant)
        out["projection_ok"] = before == after_fp
        if before != after_fp:
            out["projection"] = "differed from a replay of the ledger; it has been rebuilt from the ledger"
    out["ok"] = out["chain_ok"] and out.get("projection_ok", True)
    return out
