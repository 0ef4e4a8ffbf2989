"""The replay of a rebuild, made aside: under the tenant's shadow name, inside the rebuild's own
transaction, so that it can be compared with the projection and only what differs written.

Why aside: Neo4j applies a commit record by record while readers take no locks, so a commit that
deletes a tenant's projection and creates it again lets a concurrent read find an old node gone
and its copy not there yet — a wrong answer, or a stored row without its times, for *any* subject
of the tenant (docs/governance.md, "the commit window"). Replayed under
:func:`~graphmem.core.scope.shadow_tenant`, the projection itself is untouched until
:mod:`graphmem.store.projection_diff` has compared the two and writes the difference; the shadow
is deleted in the same transaction, so nothing of it is ever committed.

A :class:`ShadowUnit` is a unit of work whose writes and projection reads go to the shadow name,
while what belongs to the ledger stays the tenant's: its lock, its events' idempotency ids, an
erase request an ``erase_cancel`` names, and the events' links to the facts they made
(``admin/shadow_links``: a live event to a shadow fact). Its tenant key is the tenant's, so a
node the replay adds to the projection carries the right one. Node identities come from the
ledger (a fact's uid is ``f<seq>``, an episode's ``ep<seq>.<n>``, an entity's its name), so the
same event replayed gives the same keys, which is what lets the diff pair nodes.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from ..core.scope import shadow_tenant
from ..core.tenant_key import tenant_key
from .writes import parse_event
from .plans import run_query
from .projection import Expander, to_datetime
from .projection.unit_of_work import UnitOfWork, tenant_query
from .queries import Steps

__all__ = ["ShadowUnit", "drop_shadow", "replay_shadow"]

# What a replay reads or writes that is the ledger's, not the projection's: kept on the tenant.
_LEDGER = frozenset({"ledger/lock", "ledger/peek", "load/event_ids", "governance/erase_request"})


class ShadowUnit(UnitOfWork):
    """A unit of work that replays into the tenant's shadow (see the module's docstring)."""

    def __init__(self, tenant: str, now: datetime, expand: Expander | None = None) -> None:
        super().__init__(tenant, now, expand)
        self.live = tenant
        self.tenant = shadow_tenant(tenant)
        self.buffer.tenant_key = tenant_key(tenant)

    def query(self, name: str, /, **params: Any) -> Steps[list[dict[str, Any]]]:
        if name in _LEDGER:
            return (yield from self.ledger_query(name, **params))
        if name == "write/links":
            return (yield from self.ledger_query("admin/shadow_links", shadow=self.tenant, **params))
        return (yield from tenant_query(self.tenant, name, **params))

    def ledger_query(self, name: str, /, **params: Any) -> Steps[list[dict[str, Any]]]:
        """One named query for the tenant itself: what the replay reads or links of its ledger."""
        return (yield from tenant_query(self.live, name, **params))


def _replay_page(tenant: str, rows: list[dict[str, Any]], now: datetime, expand: Expander | None) -> Steps[None]:
    unit = yield from ShadowUnit.open(tenant, now, expand)
    # Segments are loaded as "not yet over" relative to this batch's first record time, not the
    # ledger's end: an expiry scheduled between them is still ahead of the replay.
    unit.last = to_datetime(rows[0]["recorded_at"])
    payloads = [json.loads(r["payload"]) for r in rows]
    yield from unit.prefetch(parse_event(p) for p in payloads if not p.get("erased") and p.get("op") != "erase")
    for row in rows:
        yield from unit.replay(row)
    yield from unit.flush(append=False)


def drop_shadow(tenant: str) -> Steps[None]:
    """Delete whatever is under the tenant's shadow name (in this transaction)."""
    while (yield from run_query("admin/drop_projection", shadow_tenant(tenant), batch=2_000))[0]["deleted"]:
        pass


def replay_shadow(tenant: str, now: datetime, expand: Expander | None, batch: int) -> Steps[int]:
    """Replay the tenant's ledger, ``batch`` events a page, into its shadow (empty before: nothing
    is ever committed under it). The caller holds the ledger lock. Returns the events replayed."""
    yield from drop_shadow(tenant)
    count, after = 0, 0
    while True:
        rows = yield from run_query("ledger/events", tenant, after=after, limit=batch)
        if not rows:
            return count
        for r in rows:
            r["recorded_at"] = to_datetime(r["recorded_at"])
        yield from _replay_page(tenant, rows, now, expand)
        count += len(rows)
        after = rows[-1]["seq"]
