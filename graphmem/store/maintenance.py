"""The plans that look after a tenant's store as a whole: the schema, the ledger's pages, a
rebuild by replay, the expiry sweep, dropping a tenant, and the read that measures a round trip.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Callable

from ..core.errors import QueryError, ValidationError
from ..core.scope import shadow_tenant
from .plans import Plan, Statement, Tx, run_query
from .projection import Expander, to_datetime
from .queries import Call, Steps
from .writes import apply

__all__ = ["check_batch", "drop_tenant", "ensure_schema", "events_page", "install_schema", "rebuild", "replay_all",
           "round_trip", "sweep"]


def _mark_schema(version: str) -> Steps[None]:
    yield Call("admin/schema_mark", {"version": version})


def install_schema() -> Plan[None]:
    """Upgrade what an earlier graphmem wrote (graphmem.store.upgrade: full-text indexes defined
    otherwise, nodes without ``tenant_key``), run every statement of schema.cypher (idempotent),
    wait for the indexes the upgrade recreated, then mark the database with its version."""
    from .queries import schema_statements, schema_version
    from .upgrade import await_indexes, upgrade

    statements = schema_statements()
    recreated = yield from upgrade(list(statements))
    for statement in statements:
        yield Statement(statement)
    yield from await_indexes(recreated)
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


def check_batch(batch: int) -> None:
    """A rebuild replays ``batch`` events per page; zero or less would replay nothing after
    dropping everything, so it is refused before anything runs."""
    if not isinstance(batch, int) or isinstance(batch, bool) or batch < 1:
        raise ValidationError(f"rebuild batch must be a positive number of events, not {batch!r}")


def replay_all(tenant: str, now: datetime, expand: Expander | None, batch: int,
               unchanged: list[int] | None = None) -> Steps[int]:
    """The work of a rebuild, inside one write transaction: take the tenant's ledger lock (the
    first statement, so a writer waits for the commit), replay the ledger ``batch`` events at a
    time under the tenant's shadow name (graphmem.store.shadow), compare the replay with the
    projection and write only what differs (graphmem.store.projection_diff), then delete the
    shadow. Readers go on seeing the projection as it was until the commit, and the commit
    touches only what changed: a node the replay gives back as it was is never deleted or
    rewritten, so a read that runs while Neo4j applies the commit (record by record; reads take no
    locks) finds it where it was. A failure anywhere rolls all of it back. Returns the events
    replayed.

    With ``unchanged`` (a list), a replay that came out exactly as the projection was is not
    committed at all: the events replayed are put in ``unchanged`` and the transaction is failed
    on purpose (``admin/abandon``), which the caller catches."""
    from .projection_diff import apply_diff, diff, read_side
    from .shadow import drop_shadow, replay_shadow

    if unchanged is not None:
        unchanged.clear()  # a retried attempt starts over
    yield from run_query("ledger/lock", tenant, token=uuid.uuid4().hex)
    count = yield from replay_shadow(tenant, now, expand, batch)
    live = yield from read_side(tenant)
    shadow = yield from read_side(shadow_tenant(tenant))
    changes = diff(live, shadow)
    if unchanged is not None and changes.empty():
        unchanged.append(count)
        yield from run_query("admin/abandon", tenant)  # raises: nothing is committed
    yield from apply_diff(tenant, changes)
    yield from drop_shadow(tenant)
    return count


def rebuild(tenant: str, clock: Callable[[], datetime], expand: Expander | None, batch: int) -> Plan[int]:
    """Replay the ledger from empty and write what differs from the projection, in one
    transaction under the tenant's ledger lock (:func:`replay_all`): nobody reads a half-built
    projection, no write lands in the middle, a node that did not change is never rewritten, and
    a rebuild that fails leaves the projection as it was.

    Replay uses each event's stored sequence number and record time, and the events a message
    drew (never the extractor), so the projection comes out identical. ``batch`` bounds how many
    events one replay step holds in memory, not the transaction (docs/governance.md: its size).
    """
    check_batch(batch)
    now = clock()
    unchanged: list[int] = []
    try:
        replayed: int = yield Tx(lambda: replay_all(tenant, now, expand, batch, unchanged), "rebuild")
    except QueryError:
        if not unchanged:
            raise
        return unchanged[0]  # the replay reproduced the projection: nothing to commit
    return replayed


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
