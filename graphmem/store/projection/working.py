"""Working memory's projection: ``working`` ledger events (open, add, compress, evict, use,
checkpoint, context, close) become ``WorkingSession`` / ``WorkingItem`` nodes.

It lives in the write path beside the other ops' handlers because every event — working steps
included — is projected by the same unit of work, on replay as on append; the working layer
(:mod:`graphmem.working`) only decides which events to append.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from ...core.errors import ValidationError
from ..queries import Steps

__all__ = ["check_detail", "flush_working"]

Query = Callable[..., Steps[list[dict[str, Any]]]]

_NEEDS: dict[str, dict[str, type]] = {"add": {"id": str, "text": str, "type": str},
                                      "compress": {"id": str, "text": str, "replaces": list},
                                      "evict": {"items": list}, "use": {"items": list}, "checkpoint": {"state": dict},
                                      "close": {"outcome": str}, "open": {"policy": dict}, "context": {}}


def check_detail(action: str, detail: dict[str, Any]) -> None:
    """A ``working`` event applied by hand (``mem.apply``) is refused unless its detail has what
    its action needs; nothing is written then."""
    for key, kind in _NEEDS.get(action, {}).items():
        if not isinstance(detail.get(key), kind):
            raise ValidationError(f"a working {action!r} event needs detail.{key} ({kind.__name__})")
    if action in ("evict", "use", "compress"):
        ids = detail.get("items") if action != "compress" else detail.get("replaces")
        if not all(isinstance(x, str) and x for x in ids or []):
            raise ValidationError(f"a working {action!r} event lists item ids as strings")


def flush_working(_q: Query, steps: list[dict[str, Any]]) -> Steps[None]:
    """Write a unit of work's working events as nodes: items, evictions, uses, then per-session
    state merged in order (latest checkpoint wins, counters add up)."""
    new_items: list[dict[str, Any]] = []
    evictions: list[dict[str, Any]] = []
    uses: list[dict[str, Any]] = []
    sessions: dict[str, dict[str, Any]] = {}
    for s in sorted(steps, key=lambda s: s["seq"]):
        d, sid, at = s["detail"], s["session"], s["at"]
        st = sessions.setdefault(sid, {
            "session": sid, "first_at": at, "policy": None, "checkpoint": None, "checkpoint_seq": None,
            "checkpoint_at": None, "checkpoints": 0, "added": 0, "contexts": 0, "context_tokens": 0,
            "context_budget": 0, "context_dropped": 0, "status": None, "closed_at": None, "outcome": None,
            "task": None, "wrong_memory": None, "report": None})
        st["last_seq"], st["last_at"] = s["seq"], at
        action = s["action"]
        if action == "open":
            st["policy"] = json.dumps(d.get("policy") or {}, sort_keys=True)
        elif action in ("add", "compress"):
            new_items.append({"session": sid, "uid": d["id"], "type": d.get("type", "turn"), "role": d.get("role"),
                              "author": d.get("author"), "text": d.get("text", ""),
                              "importance": float(d.get("importance", 0.5)), "tokens": int(d.get("tokens", 0)),
                              "seq": s["seq"], "at": at, "cites": list(d.get("cites") or []),
                              "covers": list(d.get("covers") or []),
                              "claim": json.dumps(d["claim"], sort_keys=True) if d.get("claim") else None,
                              "temporary": bool(d.get("temporary")), "source": d.get("source"),
                              "relayed_by": d.get("relayed_by")})
            st["added"] += 1
            evictions += [{"session": sid, "uid": x, "at": at, "reason": "compressed", "replaced_by": d["id"]}
                          for x in d.get("replaces") or []]
        elif action == "evict":
            evictions += [{"session": sid, "uid": x, "at": at, "reason": d.get("reason", "budget"),
                           "replaced_by": None} for x in d.get("items") or []]
        elif action == "use":
            uses += [{"session": sid, "uid": x, "at": at} for x in d.get("items") or []]
        elif action == "checkpoint":
            st.update(checkpoint=json.dumps(d.get("state"), sort_keys=True, ensure_ascii=False),
                      checkpoint_seq=s["seq"], checkpoint_at=at)
            st["checkpoints"] += 1
        elif action == "context":
            st["contexts"] += 1
            st["context_tokens"] += int(d.get("used_tokens", 0))
            st["context_budget"] += int(d.get("budget_tokens", 0))
            st["context_dropped"] += int(d.get("left_out", 0))
        elif action == "close":
            st.update(status="closed", closed_at=at, outcome=d.get("outcome"), task=d.get("task"),
                      wrong_memory=len(d.get("wrong_memory") or []),
                      report=json.dumps(d.get("report") or {}, sort_keys=True, ensure_ascii=False))
    yield from _q("working/write_sessions", sessions=list(sessions.values()))
    if new_items:
        yield from _q("working/write_items", items=new_items)
    if evictions:
        yield from _q("working/write_evictions", marks=evictions)
    if uses:
        yield from _q("working/write_uses", uses=uses)
