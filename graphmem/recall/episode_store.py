"""Episodes as stored records: what a person did, where, and when (``:Episode`` nodes).

An ``episode`` ledger event (drawn from a message by the rule extractor's ``draw``, or applied
directly) becomes ``(:Episode {who, what, where, start, end, evidence, source, said_at})`` with
``-[:FROM]->(:Source)``, ``-[:BY]->(:Entity {uid: who})`` and, when a place is named,
``-[:AT]->(:Entity {uid: where})``. ``[start, end)`` is the time it happened, resolved against the
message's time: a day ("yesterday"), or a range when the text is vague ("last week" is its Monday
to the next). Episodes are not facts: they supersede nothing and never answer ``as_of``.

:func:`episodes` is the one read (``cypher/episode/list.cypher``): episodes overlapping a time
window, of one person, whose "what" or place contains a text — what recall needs to answer
"when did … ?" — as known at ``known_at``. Erasing a subject or a source removes its episodes
(graphmem.governance.governance); an erase request withholds them at once.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..core.errors import ValidationError
from ..core.models import Episode, check_ids, parse_time
from ..core.relay import relayed_by
from ..store.ops import Plan, run_query
from ..store.projection import to_datetime

__all__ = ["episodes"]


def episodes(tenant: str, now: datetime, *, who: str | None = None, since: Any = None, until: Any = None,
             text: str | None = None, known_at: Any = None, limit: int = 50) -> Plan[list[Episode]]:
    """Episodes whose ``[start, end)`` overlaps ``[since, until)`` (either bound may be open), of
    ``who`` if given (in any case: "caroline" finds Caroline's), whose ``what`` or place contains ``text`` (case-insensitive), as known at
    ``known_at`` (default now); newest first, at most ``limit``."""
    check_ids(who=who)
    if not isinstance(limit, int) or isinstance(limit, bool) or not 0 < limit <= 10_000:
        raise ValidationError("limit must be an integer from 1 to 10000")
    if text is not None and (not isinstance(text, str) or not text.strip()):
        raise ValidationError("text must be a non-empty string")
    lo = parse_time(since) if since is not None else None
    hi = parse_time(until) if until is not None else None
    if lo is not None and hi is not None and hi <= lo:
        raise ValidationError(f"until {hi.isoformat()} is not after since {lo.isoformat()}")
    k = parse_time(known_at) if known_at is not None else now
    rows = yield from run_query("episode/list", tenant, who=who, since=lo, until=hi, text=text.strip() if text else None,
                            known_at=k, limit=limit)
    return [Episode(uid=r["uid"], who=r["who"], what=r["what"], where=r["where"],
                    start=to_datetime(r["start"]), end=to_datetime(r["end"]),
                    source=r["source"], said_at=to_datetime(r["said_at"]), evidence=r["evidence"],
                    recorded_at=to_datetime(r["recorded_at"]), planned=bool(r["planned"]), text=r["text"],
                    relayed_by=relayed_by([r["source"]], {r["source"]: r["relayed_by"]} if r["relayed_by"] else {}))
            for r in rows]
