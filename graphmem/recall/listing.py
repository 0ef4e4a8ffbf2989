"""What a user can list without a query: every current fact of a subject (``facts``) and the
candidates waiting for a confirm or a reject (``candidates``) — the ``get_all`` a user of another
memory library looks for, as :class:`~graphmem.recall.search.Memory` items (docs/search.md).

``facts`` answers each of the subject's slots with ``as_of``'s default view (confirmed facts only,
one round trip for all of them: ``as_of_many``), so what it lists is exactly what ``as_of`` says
for each topic; with ``include_candidates`` the subject's waiting candidates follow, marked
``candidate`` — listed beside the facts, never mixed into them (a candidate does not answer "what
is true", docs/design.md §5).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..core.answers import Answer
from ..core.errors import ValidationError
from ..core.fields import check_ids
from ..core.warnings import CANDIDATE, INFERRED, asserted_by, conflicting
from ..store.ops import Plan, as_of_many, run_query, view_times
from ..store.projection import to_datetime
from .items import mark_relayed, source_of, source_ref
from .memory_context import ItemWarning
from .search import Memory

__all__ = ["candidates", "facts"]

MAX_CANDIDATES = 10_000


def _check_limit(limit: Any) -> None:
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_CANDIDATES:
        raise ValidationError(f"limit must be an integer from 1 to {MAX_CANDIDATES}")


def _answer_memories(a: Answer, sources: dict[str, dict[str, Any]]) -> list[Memory]:
    row = sources.get(a.source or "")
    src = source_ref(row["uid"], row["kind"], row["at"], row["author"], row["text"],
                     relayed_by=row["relayed_by"]) if row else None
    warnings = [ItemWarning(kind="inferred", message=asserted_by(INFERRED, a.author))] if a.authority == "L2" else []
    common: dict[str, Any] = dict(subject=a.subject, topic=a.topic, env=a.env or "", is_entity=a.is_entity,
                                  valid_from=a.valid_from, valid_to=a.valid_to, authority=a.authority,
                                  status=a.status, source=src, legs=["as_of"])
    if a.conflict:
        return [Memory(kind="conflict", id=a.fact, conflict=a.conflict, **common, warnings=warnings + [
            ItemWarning(kind="conflicting", message=conflicting(a.conflict, " | "))])]
    if a.values is not None:  # a many-valued topic: one memory per value
        return [Memory(kind="fact", id=a.fact if len(a.values) == 1 else None, value=v, **common,
                       warnings=list(warnings)) for v in a.values]
    if a.value is None:
        return []
    return [Memory(kind="fact", id=a.fact, value=a.value, **common, warnings=warnings)]


def candidate_memory(r: dict[str, Any]) -> Memory:
    """A row of ``fact/candidates`` as a ``candidate`` memory."""
    warnings = [ItemWarning(kind="candidate", message=asserted_by(CANDIDATE, r["author"]))]
    if r["authority"] == "L2":
        warnings.append(ItemWarning(kind="inferred", message=asserted_by(INFERRED, r["author"])))
    return Memory(kind="candidate", id=r["fact"], ref=r["ref"], subject=r["subject"], topic=r["topic"], env=r["env"] or "",
                  value=r["value"], is_entity=bool(r["is_entity"]), valid_from=to_datetime(r["valid_from"]),
                  valid_to=to_datetime(r["valid_to"]), recorded_at=to_datetime(r["recorded_at"]),
                  expires_at=to_datetime(r["expires_at"]), authority=r["authority"], status=r["status"],
                  confidence=r["confidence"], version=r["version"], source=source_of(r, evidence=r["evidence"]),
                  legs=["candidates"], warnings=warnings)


def candidates(tenant: str, now: datetime, *, subject: str | None = None, known_at: Any = None,
               limit: int = 1000) -> Plan[list[Memory]]:
    """The candidates waiting for a confirm or a reject (of ``subject``, or of everyone), as known
    at ``known_at`` (default now), oldest first."""
    check_ids(subject=subject)
    _check_limit(limit)
    _, k = view_times(now, None, known_at)
    rows = yield from run_query("fact/candidates", tenant, subject=subject, known_at=k, limit=limit)
    found = [candidate_memory(r) for r in rows]
    mark_relayed(found)
    return found


def facts(tenant: str, now: datetime, subject: str, *, include_candidates: bool = False, valid_at: Any = None,
          known_at: Any = None) -> Plan[list[Memory]]:
    """Every fact that holds for ``subject`` at ``valid_at`` as known at ``known_at`` (both default
    now), one per topic and environment (one per value of a many-valued topic), by topic; with
    ``include_candidates``, then the subject's waiting candidates, marked ``candidate``."""
    if not isinstance(subject, str) or not subject.strip():
        raise ValidationError("facts needs the subject as a non-empty string")
    check_ids(subject=subject)
    t, k = view_times(now, valid_at, known_at)
    slots = yield from run_query("fact/subject_slots", tenant, subject=subject)
    answers = yield from as_of_many(tenant, now, [(subject, s["topic"], s["env"] or None) for s in slots],
                                    valid_at=t, known_at=k)
    uids = sorted({a.source for a in answers if a.source})
    rows = (yield from run_query("load/sources", tenant, uids=uids)) if uids else []
    by_uid = {r["uid"]: r for r in rows}
    out = [m for a in answers for m in _answer_memories(a, by_uid)]
    mark_relayed(out)
    if include_candidates:
        out += yield from candidates(tenant, now, subject=subject, known_at=k)
    return out
