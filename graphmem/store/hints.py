"""Hints for a read that would answer nothing because of a typo: a tenant with no events, a topic
the tenant never used (issue #44). A misspelt ``--tenant acmee`` or ``home_adress`` used to give an
empty answer and exit status 0.

:func:`check_read` is a plan the command line runs before its reads (graphmem.interfaces.cli.common):
an unknown tenant is a :class:`~graphmem.core.errors.NotFoundError` ("no events in tenant 'acmee'"),
followed by the names of the tenants with events only when ``list_tenants`` — the command line's
user holds the database's credentials and may see them; a client bound to one tenant (an agent
through MCP) learns nothing about the others. An unknown topic is a NotFoundError with the closest
topics of the tenant ("did you mean home_address?").
"""

from __future__ import annotations

import difflib
from typing import Any

from ..core.errors import NotFoundError
from .plans import Plan, run_query

__all__ = ["check_read", "closest", "why_empty"]

TENANTS_SHOWN = 20


def closest(word: str, known: list[str], n: int = 3) -> list[str]:
    """The known names most like ``word`` (case-insensitive), best first."""
    folded = {k.casefold(): k for k in known}
    return [folded[m] for m in difflib.get_close_matches(word.casefold(), list(folded), n=n, cutoff=0.6)]


def check_read(tenant: str, topics: list[str], *, list_tenants: bool = False) -> Plan[None]:
    """Refuse a read of a tenant with no events, or of a topic the tenant never used, with a hint."""
    rows: list[dict[str, Any]] = yield from run_query("admin/tenant_state", tenant, topics=topics)
    state = rows[0]
    if not state["head"]:
        message = f"no events in tenant {tenant!r}"
        if list_tenants:
            others = yield from run_query("admin/tenants", tenant, limit=TENANTS_SHOWN + 1)
            names = [r["tenant"] for r in others]
            close = closest(tenant, names)
            if close:
                message += f"; did you mean {' or '.join(repr(c) for c in close)}?"
            elif names:
                more = ", …" if len(names) > TENANTS_SHOWN else ""
                message += f"; tenants with events: {', '.join(names[:TENANTS_SHOWN])}{more}"
            else:
                message += "; no tenant in this database has events"
        if list_tenants:  # the command line's own words: where its user chose the tenant
            message += " (the tenant is chosen with --tenant/-t)"
        raise NotFoundError(message, kind="tenant", id=tenant)
    for topic in state["unknown"]:
        known: list[str] = state["topics"]
        close = closest(topic, known)
        hint = (f"; did you mean {' or '.join(close)}?" if close
                else f"; its topics: {', '.join(known[:12])}{', …' if len(known) > 12 else ''}" if known
                else "; it has no topics yet")
        raise NotFoundError(f"tenant {tenant!r} has no topic {topic!r}{hint}", kind="topic", id=topic)


def why_empty(tenant: str, topic: str) -> Plan[str | None]:
    """Why a read of ``topic`` answered nothing, when a typo explains it: the message
    :func:`check_read` would raise (never naming other tenants), else None. The client puts it in
    the empty answer's notes, so a library or MCP user is told what the command line refuses."""
    try:
        yield from check_read(tenant, [topic])
    except NotFoundError as e:
        return str(e)
    return None
