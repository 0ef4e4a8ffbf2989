"""Rows to recall items: the source reference every item shows (an excerpt around the evidence),
a fact item from the rows of one slot, the warnings an item carries (docs/design.md §6: inferred,
session, candidate, expiring, stale, quoted) and the weight authority, status and confidence give
its fused score."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ..core.relay import relay_note, relayed_by
from ..core.warnings import CANDIDATE, INFERRED, SESSION, conflicting
from .wording import day
from .memory_context import EXCERPT_CHARS, ContextItem, ItemWarning, SourceRef
from .recall_config import RecallConfig
from ..store.projection import to_datetime

__all__ = ["fact_item", "mark_relayed", "source_of", "source_ref", "warn",
           "weigh"]


def _excerpt(text: str | None, evidence: str | None) -> tuple[str | None, int | None]:
    if not text:
        return None, None
    if len(text) <= EXCERPT_CHARS:
        return text, None
    at = text.find(evidence) if evidence else -1
    start = max(0, min(at - EXCERPT_CHARS // 3, len(text) - EXCERPT_CHARS)) if at >= 0 else 0
    return text[start:start + EXCERPT_CHARS], len(text)


def source_ref(uid: str, kind: Any, at: Any, author: Any, text: str | None, evidence: str | None = None,
               quoted_by: list[str] | None = None, relayed_by: str | None = None) -> SourceRef:
    """The one :class:`SourceRef` builder for every item kind: an excerpt around the evidence."""
    excerpt, full = _excerpt(text, evidence)
    return SourceRef(id=uid, kind=kind, at=to_datetime(at), author=author, text=excerpt, truncated_from=full,
                     span=evidence, quoted_by=quoted_by or [], relayed_by=relayed_by)


def source_of(row: dict[str, Any], prefix: str = "source", evidence: str | None = None) -> SourceRef | None:
    """The source named by a query row's ``<prefix>``, ``<prefix>_kind``, … columns, if any."""
    uid = row.get(prefix)
    if not uid:
        return None
    return source_ref(uid, row.get(f"{prefix}_kind"), row.get(f"{prefix}_at"), row.get(f"{prefix}_author"),
                       row.get(f"{prefix}_text"), evidence, row.get("quoted_by"), row.get(f"{prefix}_relayed_by"))


def fact_item(rows: list[dict[str, Any]]) -> ContextItem:
    """Rows of one slot (several when they conflict) to one item."""
    r = rows[0]
    conflict = any(x["conflict"] for x in rows)
    return ContextItem(
        kind="conflict" if conflict else "fact", subject=r["subject"], topic=r["topic"], env=r["env"] or "",
        value=None if conflict else r["value"],
        conflict=sorted({x["value"] for x in rows}, key=str) if conflict else None,
        is_entity=bool(r["is_entity"]), valid_from=to_datetime(r["valid_from"]), valid_to=to_datetime(r["valid_to"]),
        recorded_at=to_datetime(r["recorded_at"]), expires_at=to_datetime(r["expires_at"]),
        authority=r["authority"], status=r["status"], confidence=r["confidence"], version=r["version"],
        fact=r["fact"], source=source_of(r, evidence=r.get("evidence")), score=max(x["rrf"] for x in rows),
        legs=sorted({leg for x in rows for leg in x["legs"]}),
        warnings=[ItemWarning(kind="conflicting", message=conflicting(
            f"{x['value']!r} from {x['source'] or 'no source'}" for x in rows))] if conflict else [])


def mark_relayed(items: list[Any]) -> None:
    """Mark the items (recall's :class:`ContextItem` or search's ``Memory``: each has ``source``,
    ``relayed_by`` and ``warnings``) whose source is words an agent relayed as the user's
    (graphmem.core.relay; a message item's own source, a fact's source): ``relayed_by`` and a
    ``relayed`` warning. The queries that read the items return the source's ``relayed_by`` with it
    (no round trip of its own); an old store's relayed ids are read from the id."""
    for item in items:
        src = item.source
        agent = relayed_by([src.id if src else None], {src.id: src.relayed_by} if src and src.relayed_by else {})
        if agent and item.relayed_by is None:
            item.relayed_by = agent
            item.warnings.append(ItemWarning(kind="relayed", message=relay_note(agent)))


def warn(item: ContextItem, valid_at: datetime, known_at: datetime, stale_after: timedelta,
         expiring_within: timedelta) -> None:
    """Add the warnings docs/design.md §6 asks an item to carry in this view."""
    w = item.warnings
    if item.authority == "L2":
        w.append(ItemWarning(kind="inferred", message=INFERRED))
    if item.authority == "L0":
        w.append(ItemWarning(kind="session", message=SESSION))
    if item.status == "candidate":
        w.append(ItemWarning(kind="candidate", message=CANDIDATE))
    if item.expires_at is not None and item.expires_at <= known_at + expiring_within:
        w.append(ItemWarning(kind="expiring", message=f"expires {item.expires_at.isoformat()}"))
    if item.valid_to is not None and item.kind != "quoted" and item.valid_to <= valid_at + expiring_within:
        last = (item.valid_to - timedelta(microseconds=1)).date().isoformat()
        # a question about the past: the end is already known, and may be a later change rather
        # than the end of a temporary value (graphmem.recall.recall adds what holds now)
        w.append(ItemWarning(kind="expiring", message=(
            f"ends {day(item.valid_to)} (last day {last}), soon after the time asked about"
            if valid_at < known_at and item.valid_to <= known_at else
            f"temporary (last day {last}): what it replaced resumes {day(item.valid_to)}")))
    # Stale is measured at the time the question is about, not today: a value stated in May 2025
    # is fresh for a question about June 2025, however long ago that is now (issue #44).
    asked = min(valid_at, known_at)
    if item.kind != "quoted" and item.valid_to is None and item.recorded_at is not None \
            and item.recorded_at < asked - stale_after:
        days = (asked - item.recorded_at).days
        before = "before this context" if asked == known_at else f"before {day(asked)}, the time asked about"
        w.append(ItemWarning(kind="stale", message=f"last stated {item.recorded_at.date().isoformat()}, {days} days "
                                                   f"{before}; it may have changed since"))
    src = item.source
    if item.kind == "fact" and src is not None and src.quoted_by:
        w.append(ItemWarning(kind="quoted", message=f"stated in {src.id} ({src.at.date().isoformat() if src.at else '?'}),"
                                                    f" an old source quoted later in {', '.join(src.quoted_by)}"))


def weigh(item: ContextItem, config: RecallConfig) -> float:
    """The item's fused relevance, weighed by authority, status, confidence and staleness, with the
    factors of ``config`` (authority_weights, status_weights, confidence_floor, stale_weight)."""
    conf = item.confidence if item.confidence is not None else 1.0
    score = item.score * config.authority_weights.get(item.authority or "L1", 1.0) \
        * config.status_weights.get(item.status or "", 1.0)
    floor = config.confidence_floor
    score *= floor + (1.0 - floor) * max(0.0, min(conf, 1.0))
    if any(w.kind == "stale" for w in item.warnings):
        score *= config.stale_weight
    return score
