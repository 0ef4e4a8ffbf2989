"""The plans that look after a tenant's store as a whole: the schema, the ledger's pages, a
rebuild by replay, the expiry sweep, dropping a tenant, and the read that measures a round trip.
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import partial
from typing import Any, Callable

from .plans import Plan, Statement, Tx, run_query
from . import projection
from .projection import Expander, to_datetime
from .queries import Call, Steps
from .writes import apply, parse_event

__all__ = ["drop_tenant", "ensure_schema", "events_page", "install_schema", "rebuild", "round_trip", "sweep"]


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
    unit = yield from projection.UnitOfWork.open(tenant, now, expand)
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
