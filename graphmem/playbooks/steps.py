"""The plans both levels of playbooks stand on: a write step, reading a card, a workflow or a
version, recording a transition in the ledger, and :func:`applicable` (what context() lists).
:class:`PlaybookBase` holds what the L3 and L4 plans share — the store, its tenant and clock —
so graphmem.playbooks.playbooks (L3) and graphmem.playbooks.workflows (L4) each hold one level's
operations."""

from __future__ import annotations

from typing import Any, cast

from ..core.errors import NotFoundError
from ..store.ops import Plan, Tx, run_query
from .records import Applicable, Card, Rule, Workflow, WorkflowVersion

__all__ = ["MAX_CARDS", "PlaybookBase", "applicable", "write_query"]

MAX_CARDS = 3


def write_query(query: str, tenant: str, /, **params: Any) -> Plan[list[dict[str, Any]]]:
    """One named query that writes, in its own transaction."""
    rows: list[dict[str, Any]] = yield Tx(lambda: run_query(query, tenant, **params), query)
    return rows


def applicable(tenant: str, area: str | None) -> Plan[Applicable]:
    """The plan behind :meth:`~graphmem.playbooks.faces.Playbooks.applicable`; graphmem.recall.recall runs it inside context()."""
    rows = yield from run_query("playbook/applicable", tenant, area=area)
    rules = sorted((cast(Rule, r) for r in rows if r["kind"] == "rule"), key=lambda r: (not r["safety"], r["name"]))
    cards = sorted((r["card"] for r in rows if r["kind"] == "card"),
                   key=lambda c: (-(c.get("confidence") or 0), c["uid"]))
    kept: list[Card] = []
    for c in cards:
        against = [r["name"] for r in rules
                   if set(c.get("recommended_steps") or []) & set(r["forbidden_steps"] or [])
                   or set(c.get("avoid_steps") or []) & set(r["required_steps"] or [])]
        if against != (c.get("conflicts_with") or []):
            yield from write_query("playbook/card_conflicts", tenant, uid=c["uid"], workflows=against)
        kept.append(cast(Card, {**c, "conflicts_with": against}))
    return {"rules": rules, "cards": kept[:MAX_CARDS]}


class PlaybookBase:
    """What the L3 and L4 plans of one store share: the store, its tenant and clock, the ledger
    record of a transition, and reading a card, a workflow or a version."""

    def __init__(self, store: Any) -> None:
        self._store = store

    @property
    def _tenant(self) -> str:
        tenant: str = self._store.tenant
        return tenant

    def _now(self) -> str:
        now: str = self._store._clock().isoformat()
        return now

    def _ledger(self, action: str, target: str, actor: str | None, **detail: Any) -> Plan[None]:
        """Record a transition as a ledger event (audit() shows it; the hash chain covers it)."""
        from ..store.ops import apply
        yield from apply(self._tenant, {"op": "playbook", "action": action, "target": target,
                                        "detail": {k: v for k, v in detail.items() if v is not None},
                                        **({"actor": actor} if actor else {})},
                         self._store._clock(), None, self._store.actor)

    def _card(self, uid: str | None) -> Plan[Card]:
        rows = yield from run_query("playbook/card_get", self._tenant, uid=uid)
        if not rows:
            raise NotFoundError(f"unknown card {uid!r}", kind="card", id=uid or "")
        return cast(Card, {**rows[0]["card"], "evidence": rows[0]["evidence"]})

    def _workflow(self, name: str) -> Plan[Workflow]:
        rows = yield from run_query("playbook/workflow_get", self._tenant, name=name)
        if not rows:
            raise NotFoundError(f"unknown workflow {name!r}", kind="workflow", id=name)
        versions = [v for v in rows[0]["versions"] if v.get("uid")]
        wf = rows[0]["workflow"]
        return cast(Workflow, {**wf, "current_version": wf.get("current_version"),
                               "delegates": wf.get("delegates") or [], "versions": versions})

    def _version(self, uid: str) -> Plan[WorkflowVersion]:
        for wf in (yield from run_query("playbook/workflows", self._tenant)):
            detail = yield from self._workflow(wf["name"])
            for version in detail["versions"]:
                if version["uid"] == uid:
                    return version
        raise NotFoundError(f"unknown workflow version {uid!r}", kind="workflow version", id=uid)
