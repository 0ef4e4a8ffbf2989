"""The fact legs of recall: what the timeline holds for the task (``recall/candidates``: scope →
time → graph, topic, full-text and vector legs → reciprocal-rank fusion, in Cypher), the views
the materialised segments do not hold (this session's L0 facts, candidates when asked), resolved
with ``as_of``'s rules, and the old documents quoted about the slots shown (history, flagged)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..core.warnings import conflicting
from .items import fact_item, source_of, source_ref
from .memory_context import ContextItem, ItemWarning
from .recall_config import RecallConfig
from .terms import MAX_MENTIONS, MAX_TOPICS, TaskTerms, pad, plan_shaped
from .vectors import MAX_VECTOR_HITS
from ..store.ops import Plan, as_of, run_query
from ..store.projection import to_datetime

__all__ = ["fact_candidates", "quoted_items", "with_overlays"]


def _overlay_items(tenant: str, now: datetime, slots: list[dict[str, Any]], t: datetime, k: datetime,
                   session: str | None, include_candidates: bool) -> Plan[list[ContextItem]]:
    """Slots whose answer differs in the asked view, resolved with as_of's rules."""
    out: list[ContextItem] = []
    sources: set[str] = set()
    answers = []
    for s in slots:
        a = yield from as_of(tenant, now, s["subject"], s["topic"], valid_at=t, known_at=k, env=s["env"] or None,
                             session=session, include_candidates=include_candidates)
        answers.append((s, a))
        sources.update(a.sources)
    rows = (yield from run_query("load/sources", tenant, uids=sorted(sources))) if sources else []
    by_id = {r["uid"]: r for r in rows}
    for s, a in answers:
        values = a.values if a.values is not None else ([] if a.value is None and a.conflict is None else [a.value])
        row = by_id.get(a.source or "")
        src = source_ref(row["uid"], row["kind"], row["at"], row["author"], row["text"],
                         relayed_by=row["relayed_by"]) if row else None
        common = dict(subject=s["subject"], topic=s["topic"], env=s["env"] or "", is_entity=a.is_entity,
                      valid_from=a.valid_from, valid_to=a.valid_to, authority=a.authority, status=a.status,
                      fact=a.fact, source=src, legs=["overlay"])
        if a.conflict:
            out.append(ContextItem(kind="conflict", conflict=a.conflict, **common, warnings=[ItemWarning(
                kind="conflicting", message=conflicting(a.conflict, " | "))]))
        else:
            out.extend(ContextItem(kind="fact", value=v, **common) for v in values)
    return out


def fact_candidates(tenant: str, terms: TaskTerms, subject: str | None, envs: list[str], t: datetime,
                    k: datetime, vector_hits: list[str], config: RecallConfig) -> Plan[list[ContextItem]]:
    """Scope → time → relevance legs → fused rank, in Cypher; rows of one conflicting slot become one item.
    The reach, the depth and every ranking parameter come from ``config`` (hops, limit,
    fact_leg_weights, fact_rrf_k): one place to tune them (issue #46)."""
    roots = [subject] if subject else terms.mentions
    # Lists go padded to fixed lengths (with "", which no id can be): Neo4j plans a query per bucket of
    # list sizes, and this query's plan takes ~1 s to compile; fixed shapes compile it once.
    rows = yield from run_query("recall/candidates", tenant, subject=subject, roots=pad(roots, MAX_MENTIONS), hops=config.hops,
                            envs=pad(envs, 2), valid_at=t, known_at=k, topics=pad(terms.topics, MAX_TOPICS),
                            topic_rank={x: i for i, x in enumerate(terms.topics)}, lucene=plan_shaped(terms.lucene(tenant)),
                            vector_hits=pad(vector_hits, MAX_VECTOR_HITS), k=config.limit,
                            rrf_k=config.fact_rrf_k, weights=config.fact_leg_weights)
    by_slot: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for r in rows:
        by_slot.setdefault((r["subject"], r["topic"], r["env"] or ""), []).append(r)
    items: list[ContextItem] = []
    for rs in by_slot.values():
        if any(x["conflict"] for x in rs):
            items.append(fact_item(rs))
        else:
            items.extend(fact_item([x]) for x in rs)
    return items


def with_overlays(tenant: str, now: datetime, items: list[ContextItem], subject: str | None, envs: list[str],
                  t: datetime, k: datetime, session: str | None, include_candidates: bool,
                  config: RecallConfig) -> Plan[list[ContextItem]]:
    """The asked view where it differs from the materialised one (L0 of this session, candidates).
    An overlay slot takes the fused score of the item it replaces, or one first-ranked hit of one
    leg (1 / (fact_rrf_k + 1)) when nothing fused was shown for it."""
    if session is None and not include_candidates:
        return items
    subjects = sorted({i.subject for i in items} | ({subject} if subject else set()))
    overlay = yield from run_query("recall/overlays", tenant, session=session, include_candidates=include_candidates,
                               subjects=subjects, envs=envs)
    slots = [o for o in overlay if subject is None or o["subject"] in subjects]
    if not slots:
        return items
    keys = {(o["subject"], o["topic"], o["env"] or "") for o in slots}
    floor = {key: max((i.score for i in items if (i.subject, i.topic, i.env) == key), default=0.0) for key in keys}
    kept = [i for i in items if (i.subject, i.topic, i.env) not in keys]
    for i in (yield from _overlay_items(tenant, now, slots, t, k, session, include_candidates)):
        i.score = floor[(i.subject, i.topic, i.env)] or 1.0 / (config.fact_rrf_k + 1)
        kept.append(i)
    return kept


def quoted_items(tenant: str, items: list[ContextItem], t: datetime, k: datetime,
                 config: RecallConfig) -> Plan[list[ContextItem]]:
    """Old documents quoted about the slots shown: history, flagged, never the current value; each
    under its slot's current value (``config.quoted_weight`` of its score)."""
    slots = [{"subject": s, "topic": tp, "env": e} for s, tp, e in sorted({(i.subject, i.topic, i.env) for i in items})]
    if not slots:
        return []
    quoted = yield from run_query("recall/quoted", tenant, slots=slots, known_at=k)
    current = {(i.subject, i.topic, i.env): i for i in items}
    seen: set[str] = set()
    out: list[ContextItem] = []
    for q in quoted:
        cur = current.get((q["subject"], q["topic"], q["env"] or ""))
        if q["fact"] in seen or cur is None or cur.fact == q["fact"] or q["value"] == cur.value:
            continue  # nothing shown for that slot, or the quote only repeats what holds
        seen.add(q["fact"])
        now_text = cur.value if cur.kind == "fact" else " | ".join(map(str, cur.conflict or []))
        said = (to_datetime(q["source_at"]) or t).date().isoformat()
        forwarded = (to_datetime(q["quoted_at"]) or t).date().isoformat()
        out.append(ContextItem(
            kind="quoted", subject=q["subject"], topic=q["topic"], env=q["env"] or "", value=q["value"],
            valid_from=to_datetime(q["valid_from"]), authority="L1", status="history", version=q["version"],
            fact=q["fact"], source=source_of(q), legs=["quoted"], score=cur.score * config.quoted_weight,
            warnings=[ItemWarning(kind="quoted", message=(
                f"what {q['source']} said on {said}, forwarded in {q['quoted_in']} on {forwarded}; history, not the "
                f"current value ({now_text})"))]))
    return out
