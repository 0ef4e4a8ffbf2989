"""Recall: "what should I know for this task?" as one read step (DESIGN.md §6, issue #5).

:func:`context` is a plan like every other operation (sync and async clients run it alike):

1. **understand the task** without a model — the words and identifiers it uses, the topics it asks
   about (the vocabulary's ``cues`` and ``nouns``), the entity ids it names (:func:`analyse`);
2. **ask Neo4j** (``cypher/recall/candidates.cypher``), which works in the order DESIGN.md fixes:
   scope (tenant, subject and its current neighbourhood, environment) → time (segments live at
   ``valid_at`` / ``known_at``) → relevance (graph distance, topics named, the ``memory_text``
   full-text index, the optional vector index) → reciprocal-rank fusion of those legs;
3. **overlay** the views the materialised segments do not hold (this session's L0 facts, and
   candidates when asked) by resolving those slots with the same rules as ``as_of``;
4. **weigh** fused relevance by authority, status, confidence and validity, and draw the
   **warnings** (stale, inferred, candidate, conflicting, expiring, quoted, session);
5. add quoted old claims on the same slots (flagged history), the rules and at most three cards
   (graphmem.playbooks.playbooks), the subject's summary (graphmem.recall.summaries, rebuilt if stale);
6. **fit** the budget (graphmem.recall.context_text.fit).

Nothing here writes to the ledger; the only writes are derived copies (embeddings, summaries).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from .budget import count_tokens
from .episodic import (People, asks_about_past, fold, history_items, mark_replaced, message_items, resolve_people,
                       task_range)
from ..core.errors import AccessError, ConfigurationError, ValidationError
from ..extract.vocabulary import Vocabulary
from .context_text import day, fit, header
from .memory_context import (EXCERPT_CHARS, Card, ContextItem, ItemWarning, MemoryContext, Rule,
                             SourceRef, SummaryView)
from ..core.models import MAX_TEXT, check_ids
from ..store.ops import Plan, Tx, run_query, view_times, as_of
from ..store.projection import to_datetime
from ..store.queries import Call, Steps
from .recall_config import RecallConfig, recall_config

__all__ = ["TaskTerms", "analyse", "context", "embed_pending"]

RRF_K = 60
MAX_MENTIONS, MAX_TOPICS, MAX_TERMS, MAX_VECTOR_HITS = 300, 16, 48, 100
FACT_OVERSAMPLE = 10  # the most the fact vector leg asks a shared index for, in multiples of its limit
AUTHORITY_WEIGHT = {"L0": 1.3, "L1": 1.0, "L2": 0.6}
STATUS_WEIGHT = {"confirmed": 1.0, "candidate": 0.5}
QUOTED_WEIGHT = 0.5

_STOP_EN = frozenset("""a an and are as at be been but by can could did do does for from had has have he her his
how i if in into is it its me my need needs of on or our please she should so that the their them then there these
they this to us was we were what when where which who whom why will with would you your tell know about any some
up out get give find show does doing done just now today tomorrow yesterday""".split())
_WORD = re.compile(r"[A-Za-z0-9\u00c0-\u024f](?:[A-Za-z0-9\u00c0-\u024f_.:/\-]*[A-Za-z0-9\u00c0-\u024f])?")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_ZH_STOP = frozenset("的了吗呢吧啊我你他她它们是在有和与就都也还要会能这那哪什么怎么请帮一下个")


@dataclass(frozen=True)
class TaskTerms:
    """What recall takes from the task text: search terms, topics named, entity ids named."""

    terms: list[str]
    topics: list[str]
    mentions: list[str]

    def lucene(self, tenant: str) -> str | None:
        """A Lucene query for ``memory_text``: the tenant as a required phrase, the terms as optional
        phrases (every term quoted and escaped: task text never becomes query syntax)."""
        if not self.terms and not self.topics:
            return None
        parts = [_phrase(t) for t in self.terms] + [f"topic:{_phrase(t)}^2" for t in self.topics]
        scope = f"tenant:{_phrase(tenant)} AND " if re.search(r"\w", tenant) else ""
        return f"{scope}({' OR '.join(parts)})"


def _phrase(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def analyse(task: str, vocabulary: Vocabulary | None = None) -> TaskTerms:
    """Terms, topics and entity mentions of a task, English and Chinese, by rule (no model)."""
    vocabulary = vocabulary or Vocabulary.default()
    lowered = task.lower()
    words = [w for w in _WORD.findall(task)]
    terms: list[str] = []
    for w in words:
        if w.lower() not in _STOP_EN and (len(w) > 1 or w.isdigit()) and w.lower() not in (t.lower() for t in terms):
            terms.append(w)
    mentions: list[str] = []
    for w in words:
        mentions += [w, w.lower()]
    for a, b in zip(words, words[1:]):
        mentions += [f"{a} {b}", f"{a}_{b}".lower(), f"{a}-{b}".lower()]
    for run in _CJK.findall(task):
        if len(terms) >= MAX_TERMS and len(mentions) >= MAX_MENTIONS:
            break  # a long text: enough to search with
        for i in range(len(run) - 1):
            bigram = run[i:i + 2]
            if not set(bigram) <= _ZH_STOP and bigram not in terms:
                terms.append(bigram)
        for n in range(2, 7):
            mentions += [run[i:i + n] for i in range(min(len(run) - n + 1, MAX_MENTIONS))]
    topics: list[str] = []
    for name, rules in vocabulary.topics.items():
        cues = [name, name.replace("_", " "), *rules.nouns.get("en", []), *rules.nouns.get("zh", []),
                *rules.cues.get("en", []), *rules.cues.get("zh", [])]
        if any(cue_in(c, lowered) for c in cues):
            topics.append(name)
    # Topic names written out in the task ("deploy.port", "home_address") count as topics too.
    topics += [w for w in words if ("_" in w or "." in w) and w not in topics and not w[0].isdigit()]
    return TaskTerms(terms=terms[:MAX_TERMS], topics=topics[:MAX_TOPICS],
                     mentions=list(dict.fromkeys(mentions))[:MAX_MENTIONS])


def _pad(values: list[str], n: int) -> list[str]:
    return list(values[:n]) + [""] * (n - len(values[:n]))


def cue_in(cue: str, lowered: str) -> bool:
    cue = cue.lower()
    if _CJK.search(cue):
        return cue in lowered
    return re.search(r"(?<![a-z0-9])" + re.escape(cue) + r"(?![a-z0-9])", lowered) is not None


# -- embeddings (derived copies, caught up before a vector query) ------------------------------------

def _text(row: dict[str, Any]) -> str:
    if row["label"] == "Source":
        # Who said it is part of what it means: "Caroline: I went to a support group" is near
        # "When did Caroline go to the support group?" (LoCoMo dev: 0.47 -> 0.63 recall alone).
        return f"{row['author']}: {row['text'] or ''}" if row.get("author") else row["text"] or ""
    return " ".join(str(x) for x in (row["subject"], row["topic"].replace("_", " "), row["value"], row["evidence"])
                    if x)


def ensure_vector_index(tenant: str, dimensions: int) -> Plan[None]:
    """Create the fact and source vector indexes for this embedder's dimension, once."""
    rows = yield from run_query("recall/vector_index_info", tenant)
    have = {r["name"]: r["dimensions"] for r in rows}
    for index in ("fact_embedding", "source_embedding"):
        if have.get(index) not in (None, dimensions):
            raise ConfigurationError(f"the {index} index has {have[index]} dimensions, the embedder {dimensions}: "
                                     f"drop it (DROP INDEX {index}) to switch embedders")
    if "fact_embedding" not in have:
        yield Tx(partial(_create_index, Call("recall/vector_index_facts", {"dimensions": dimensions})), "vector index")
    if "source_embedding" not in have:
        yield Tx(partial(_create_index, Call("recall/vector_index_sources", {"dimensions": dimensions})),
                 "vector index")


def _create_index(call: Call) -> Steps[None]:
    yield call


def embed_pending(tenant: str, embedder: Any, *, limit: int = 1000, rounds: int = 1,
                  settle_to: int | None = None) -> Plan[int]:
    """Embed the facts and sources written since the embeddings were last brought up to date.

    ``settle_to``: a ledger head read *before* this call. When the pages run out, every event up to
    it has been looked at, so the state may claim it even when its last events wrote nothing to
    embed (a confirm, an expiry) — otherwise each context() would look again for nothing."""
    done = 0
    for _ in range(rounds):
        rows = yield from run_query("recall/embed_pending", tenant, limit=limit)
        if rows and rows[0]["embedder"] not in (None, embedder.name):
            raise ConfigurationError(f"tenant {tenant!r} was embedded with {rows[0]['embedder']!r}, not "
                                     f"{embedder.name!r}: rebuild the tenant to switch embedders")
        if not rows:
            if settle_to:
                yield Tx(lambda: run_query("recall/embed_write", tenant, facts=[], sources=[], seq=settle_to,
                                       embedder=embedder.name), "recall/embed_write")
            break
        vectors = embedder.embed([_text(r) for r in rows])
        facts = [{"uid": r["uid"], "vector": v} for r, v in zip(rows, vectors) if r["label"] == "Fact"]
        sources = [{"uid": r["uid"], "vector": v} for r, v in zip(rows, vectors) if r["label"] == "Source"]
        # One event can write several facts (a message): when the page is full, its last sequence
        # number may be incomplete, so the state only claims the one before (its rows come again).
        last = rows[-1]["seq"]
        covered = last if len(rows) < limit or rows[0]["seq"] == last else last - 1
        if len(rows) < limit and settle_to:
            covered = max(covered, settle_to)
        yield Tx(lambda: run_query("recall/embed_write", tenant, facts=facts, sources=sources, seq=covered,
                               embedder=embedder.name), "recall/embed_write")
        done += len(rows) if covered >= last else sum(1 for r in rows if r["seq"] < last)
        if len(rows) < limit:
            break
    return done


# -- the read step --------------------------------------------------------------------------------

def _check(task: Any, budget_tokens: Any, hops: Any, limit: Any, ids: dict[str, Any]) -> None:
    if not isinstance(task, str) or not task.strip():
        raise ValidationError("context needs the task as non-empty text")
    if len(task) > MAX_TEXT:
        raise ValidationError(f"task text is longer than {MAX_TEXT} characters")
    if not isinstance(budget_tokens, int) or isinstance(budget_tokens, bool) or budget_tokens < 64:
        raise ValidationError("budget_tokens must be an integer of at least 64")
    if hops not in (0, 1, 2):
        raise ValidationError("hops must be 0, 1 or 2")
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 500:
        raise ValidationError("limit must be an integer from 1 to 500")
    check_ids(**ids)


def _excerpt(text: str | None, evidence: str | None) -> tuple[str | None, int | None]:
    if not text:
        return None, None
    if len(text) <= EXCERPT_CHARS:
        return text, None
    at = text.find(evidence) if evidence else -1
    start = max(0, min(at - EXCERPT_CHARS // 3, len(text) - EXCERPT_CHARS)) if at >= 0 else 0
    return text[start:start + EXCERPT_CHARS], len(text)


def source_ref(uid: str, kind: Any, at: Any, author: Any, text: str | None, evidence: str | None = None,
                quoted_by: list[str] | None = None) -> SourceRef:
    excerpt, full = _excerpt(text, evidence)
    return SourceRef(id=uid, kind=kind, at=to_datetime(at), author=author, text=excerpt, truncated_from=full,
                     span=evidence, quoted_by=quoted_by or [])


def source_of(row: dict[str, Any], prefix: str = "source", evidence: str | None = None) -> SourceRef | None:
    uid = row.get(prefix)
    if not uid:
        return None
    return source_ref(uid, row.get(f"{prefix}_kind"), row.get(f"{prefix}_at"), row.get(f"{prefix}_author"),
                       row.get(f"{prefix}_text"), evidence, row.get("quoted_by"))


def _item(rows: list[dict[str, Any]]) -> ContextItem:
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
        warnings=[ItemWarning(kind="conflicting", message="sources disagree and nothing here decides: " + "; ".join(
            f"{x['value']!r} from {x['source'] or 'no source'}" for x in rows))] if conflict else [])


def _warn(item: ContextItem, valid_at: datetime, known_at: datetime, stale_after: timedelta,
          expiring_within: timedelta) -> None:
    w = item.warnings
    if item.authority == "L2":
        w.append(ItemWarning(kind="inferred", message="inferred from history; nobody stated it — confirm before "
                                                      "relying on it"))
    if item.authority == "L0":
        w.append(ItemWarning(kind="session", message="holds for this session only"))
    if item.status == "candidate":
        w.append(ItemWarning(kind="candidate", message="an unconfirmed candidate, not a fact until confirmed"))
    if item.expires_at is not None and item.expires_at <= known_at + expiring_within:
        w.append(ItemWarning(kind="expiring", message=f"expires {item.expires_at.isoformat()}"))
    if item.valid_to is not None and item.kind != "quoted" and item.valid_to <= valid_at + expiring_within:
        last = (item.valid_to - timedelta(microseconds=1)).date().isoformat()
        w.append(ItemWarning(kind="expiring", message=f"temporary: ends {day(item.valid_to)} (last day {last}); "
                                                      "what it replaced resumes then"))
    if item.kind != "quoted" and item.valid_to is None and item.recorded_at is not None \
            and item.recorded_at < known_at - stale_after:
        days = (known_at - item.recorded_at).days
        w.append(ItemWarning(kind="stale", message=f"last stated {item.recorded_at.date().isoformat()}, {days} days "
                                                   "before this context; it may have changed since"))
    src = item.source
    if item.kind == "fact" and src is not None and src.quoted_by:
        w.append(ItemWarning(kind="quoted", message=f"stated in {src.id} ({src.at.date().isoformat() if src.at else '?'}),"
                                                    f" an old source quoted later in {', '.join(src.quoted_by)}"))


def _weigh(item: ContextItem) -> float:
    conf = item.confidence if item.confidence is not None else 1.0
    score = item.score * AUTHORITY_WEIGHT.get(item.authority or "L1", 1.0) * STATUS_WEIGHT.get(item.status or "", 1.0)
    score *= 0.5 + 0.5 * max(0.0, min(conf, 1.0))
    if any(w.kind == "stale" for w in item.warnings):
        score *= 0.8
    return score


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
        src = source_ref(row["uid"], row["kind"], row["at"], row["author"], row["text"]) if row else None
        common = dict(subject=s["subject"], topic=s["topic"], env=s["env"] or "", is_entity=a.is_entity,
                      valid_from=a.valid_from, valid_to=a.valid_to, authority=a.authority, status=a.status,
                      fact=a.fact, source=src, legs=["overlay"])
        if a.conflict:
            out.append(ContextItem(kind="conflict", conflict=a.conflict, **common, warnings=[ItemWarning(
                kind="conflicting", message="sources disagree and nothing here decides: " + " | ".join(map(str, a.conflict)))]))
        else:
            out.extend(ContextItem(kind="fact", value=v, **common) for v in values)
    return out


def _playbooks(tenant: str, terms: TaskTerms, area: str | None) -> Plan[tuple[list[Rule], list[Card]]]:
    from ..playbooks.playbooks import MAX_CARDS, applicable

    found = yield from applicable(tenant, area)
    words = {t.lower() for t in terms.terms} | set(terms.topics)

    def overlaps(*texts: Any) -> bool:
        blob = " ".join(str(x) for x in texts if x).lower()
        return any(w in blob for w in words if len(w) > 2 or _CJK.match(w))

    rules = [Rule(name=r["name"], version=r["version"], text=r["text"], safety=bool(r["safety"]))
             for r in found["rules"] if area is not None or r["safety"] or overlaps(r["name"], r["text"])]
    cards = [Card(**{k: c.get(k) or ([] if k.endswith("steps") or k in ("preconditions", "conflicts_with") else None)
                     for k in Card.model_fields})
             for c in found["cards"]
             if area is not None or overlaps(c.get("area"), c.get("problem_signature"), c.get("signature"))]
    return rules, cards[:MAX_CARDS]


def _begin(tenant: str) -> Plan[dict[str, Any]]:
    """The tenant's ledger head, embedding state and which legs have anything to search (one round trip)."""
    rows = yield from run_query("recall/begin", tenant)
    return rows[0]


def vector_k(limit: int, oversample: int, mine: int | None, everyone: int | None) -> int:
    """How many hits to ask a vector index for, so that about ``limit`` of them are the tenant's.

    The fact and source indexes span tenants (Neo4j 5 cannot filter inside a vector search), so
    the search is asked for more and the hits are filtered. How much more follows the tenant's
    share of the index — its own vectors (EmbeddingState counts them) over the label's nodes (the
    count store) — twice over, since near neighbours need not be spread evenly; never more than
    ``limit * oversample`` (the fixed oversample this replaces).
    A tenant alone in its database asks for 2 × limit instead of 10–20 ×: at 100k facts the
    search is most of context()'s time, and it grows with k. Unknown counts (a state written
    before they were kept) ask for the most."""
    most = limit * oversample
    if not mine or not everyone:
        return most
    share = min(1.0, mine / everyone)
    return min(most, math.ceil(2 * limit / share))


def _vector_leg(tenant: str, task: str, embedder: Any, limit: int, notes: list[str],
                state: dict[str, Any]) -> Plan[tuple[list[str], list[float] | None]]:
    """Fact ids nearest to the task (by their own text or their source's), best first; and the task's
    vector, which the message leg uses too. The embeddings are caught up first, but only when the
    ledger has moved since they last were (``state`` is :func:`_begin`'s row)."""
    if embedder is None:
        notes.append("vector search off (no embedder; GRAPHMEM_EMBEDDER=off or the wordllama package is "
                      "missing): graph, topic and full-text legs only")
        return [], None
    if state["embedder"] not in (None, embedder.name):
        raise ConfigurationError(f"tenant {tenant!r} was embedded with {state['embedder']!r}, not "
                                 f"{embedder.name!r}: rebuild the tenant to switch embedders")
    if state["embedded"] is None or state["embedded"] < state["head"]:
        if state["embedded"] is None:
            yield from ensure_vector_index(tenant, embedder.dimensions)
        rounds, page = 5, 1000
        done = yield from embed_pending(tenant, embedder, limit=page, rounds=rounds, settle_to=state["head"])
        if done >= (rounds - 1) * page and (yield from run_query("recall/embed_pending", tenant, limit=1)):
            notes.append("the vector index is still catching up with recent facts (embed_pending)")
    vector = embedder.embed([task])[0]
    if not state["held"]:
        return [], vector
    hits = yield from run_query("recall/vector", tenant, vector=vector,
                            k_facts=vector_k(limit, FACT_OVERSAMPLE, state["fact_vectors"], state["all_facts"]),
                            k_sources=vector_k(limit, FACT_OVERSAMPLE, state["source_vectors"], state["all_sources"]))
    ranked = sorted(hits, key=lambda h: -h["score"])
    return list(dict.fromkeys(h["fact"] for h in ranked))[:min(limit, MAX_VECTOR_HITS)], vector


def _candidates(tenant: str, terms: TaskTerms, subject: str | None, envs: list[str], t: datetime, k: datetime,
                hops: int, limit: int, vector_hits: list[str], weights: dict[str, float]) -> Plan[list[ContextItem]]:
    """Scope → time → relevance legs → fused rank, in Cypher; rows of one conflicting slot become one item."""
    roots = [subject] if subject else terms.mentions
    # Lists go padded to fixed lengths (with "", which no id can be): Neo4j plans a query per bucket of
    # list sizes, and this query's plan takes ~1 s to compile; fixed shapes compile it once.
    rows = yield from run_query("recall/candidates", tenant, subject=subject, roots=_pad(roots, MAX_MENTIONS), hops=hops,
                            envs=_pad(envs, 2), valid_at=t, known_at=k, topics=_pad(terms.topics, MAX_TOPICS),
                            topic_rank={x: i for i, x in enumerate(terms.topics)}, lucene=terms.lucene(tenant),
                            vector_hits=_pad(vector_hits, MAX_VECTOR_HITS), k=limit, rrf_k=RRF_K,
                            weights=weights)
    by_slot: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for r in rows:
        by_slot.setdefault((r["subject"], r["topic"], r["env"] or ""), []).append(r)
    items: list[ContextItem] = []
    for rs in by_slot.values():
        if any(x["conflict"] for x in rs):
            items.append(_item(rs))
        else:
            items.extend(_item([x]) for x in rs)
    return items


def _with_overlays(tenant: str, now: datetime, items: list[ContextItem], subject: str | None, envs: list[str],
                   t: datetime, k: datetime, session: str | None,
                   include_candidates: bool) -> Plan[list[ContextItem]]:
    """The asked view where it differs from the materialised one (L0 of this session, candidates)."""
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
        i.score = floor[(i.subject, i.topic, i.env)] or 1.0 / (RRF_K + 1)
        kept.append(i)
    return kept


def _quoted_items(tenant: str, items: list[ContextItem], t: datetime, k: datetime) -> Plan[list[ContextItem]]:
    """Old documents quoted about the slots shown: history, flagged, never the current value."""
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
            fact=q["fact"], source=source_of(q), legs=["quoted"], score=cur.score * QUOTED_WEIGHT,
            warnings=[ItemWarning(kind="quoted", message=(
                f"what {q['source']} said on {said}, forwarded in {q['quoted_in']} on {forwarded}; history, not the "
                f"current value ({now_text})"))]))
    return out


def _leg(name: str, plan: Plan[Any], default: Any, failed: list[str], notes: list[str]) -> Plan[Any]:
    """Run one optional leg; if it fails, the context is degraded (a note says so), not refused.
    A tenancy refusal is never a leg failure: it propagates."""
    try:
        return (yield from plan)
    except AccessError:
        raise
    except Exception as e:  # the embedder, a summary, a playbook query: any failure degrades
        failed.append(name)
        notes.append(f"degraded: the {name} leg failed ({type(e).__name__}: {str(e)[:200]}); "
                     "this context is built without it")
        return default


def context(tenant: str, now: datetime, task: str, *, subject: str | None = None, env: str | None = None,
            session: str | None = None, valid_at: Any = None, known_at: Any = None, budget_tokens: int = 1500,
            include_candidates: bool = False, hops: int | None = None, limit: int | None = None,
            area: str | None = None, embedder: Any = None, summary: bool = True, playbooks: bool = True,
            stale_after_days: int | None = None, expiring_within_days: int | None = None,
            config: RecallConfig | str | None = None, gaps: bool = True) -> Plan[MemoryContext]:
    """What an agent should know for ``task``: see the module docstring for the steps. The knobs are
    a :class:`~graphmem.recall.recall_config.RecallConfig` (or a preset name); ``hops``, ``limit``,
    ``stale_after_days`` and ``expiring_within_days`` override it."""
    overrides = {k: v for k, v in (("hops", hops), ("limit", limit), ("stale_after_days", stale_after_days),
                                   ("expiring_within_days", expiring_within_days)) if v is not None}
    _check(task, budget_tokens, overrides.get("hops", 2), overrides.get("limit", 40),
           {"subject": subject, "env": env, "session": session, "area": area})
    cfg = recall_config(config, **overrides)
    t, k = view_times(now, valid_at, known_at)
    ctx = MemoryContext(task=task, tenant=tenant, subject=subject, env=env, session=session, valid_at=t, known_at=k,
                        ledger_version=10**12, budget_tokens=budget_tokens)
    if count_tokens(header(ctx)) + 8 > budget_tokens:  # before any I/O: a refused call touches nothing
        raise ValidationError(f"budget_tokens={budget_tokens} does not even hold the context's header")
    terms = analyse(task)
    envs = [""] + ([env] if env else [])
    notes: list[str] = []
    people = (yield from resolve_people(tenant, task)) if subject is None else People({}, {})
    notes += people.notes()
    if people.ids:  # the people it names are roots of the graph leg, like the ids it names
        terms = TaskTerms(terms=terms.terms, topics=terms.topics,
                          mentions=list(dict.fromkeys(people.ids + terms.mentions))[:MAX_MENTIONS])
    state = yield from _begin(tenant)
    failed: list[str] = []
    vector_hits, vector = yield from _leg("vector", _vector_leg(tenant, task, embedder, cfg.limit, notes, state),
                                          ([], None), failed, notes)
    from ..working.working_store import live_items
    working = (yield from _leg("working", live_items(tenant, session), [], failed, notes)) if session else []
    items: list[ContextItem] = []
    if cfg.facts and state["held"]:  # the legs search the timeline: nothing on it, nothing to find
        items = yield from _candidates(tenant, terms, subject, envs, t, k, cfg.hops, cfg.limit, vector_hits,
                                       cfg.fact_leg_weights)
    if cfg.facts and state["facts"]:
        items = yield from _with_overlays(tenant, now, items, subject, envs, t, k, session, include_candidates)
    if env:  # an environment's own value replaces the general one for the same subject and topic
        specific = {(i.subject, i.topic) for i in items if i.env == env}
        items = [i for i in items if i.env == env or (i.subject, i.topic) not in specific]
    stale_after, expiring_within = timedelta(days=cfg.stale_after_days), timedelta(days=cfg.expiring_within_days)
    for i in items:
        _warn(i, t, k, stale_after, expiring_within)
        i.score = _weigh(i)
    from .gaps import gap_leg, level
    named = set(terms.mentions)  # whom the task is about: the subject, the people it names, the ids it names
    gap_subjects = [subject] if subject else list(dict.fromkeys(
        people.ids + [i.subject for i in items if i.kind in ("fact", "conflict") and i.subject in named]))
    found_gaps = (yield from _leg("gaps", gap_leg(tenant, now, task, terms, gap_subjects, t,
                                                   k, valid_at, env, session, expiring_within, items), [], failed,
                                  notes)) if gaps else []
    items += yield from _quoted_items(tenant, items, t, k)
    past = asks_about_past(task)
    if cfg.facts and cfg.history and past and state["held"]:
        items += yield from history_items(tenant, now, terms.lucene(tenant), subject, t, k,
                                          {i.fact for i in items if i.fact}, cfg.limit // 2)
    if cfg.messages:
        said, drawn = yield from message_items(tenant, terms.terms, known_at=k, subject=subject, session=session,
                                               speakers=[subject] if subject else people.ids,
                                               when=task_range(task, t), vector=vector, config=cfg,
                                               k_vector=vector_k(cfg.message_limit, cfg.vector_oversample,
                                                                 state["source_vectors"], state["all_sources"]))
        items = fold(items, said)
        yield from mark_replaced(tenant, now, [i for i in items if i.kind == "message"], drawn, t, k)
    level(items, found_gaps)
    items.sort(key=lambda i: (-i.score, i.kind in ("quoted", "history"), i.subject, i.topic, str(i.value),
                              i.source.id if i.source else ""))
    rules, cards = (yield from _leg("playbooks", _playbooks(tenant, terms, area), ([], []), failed, notes)) \
        if playbooks and state["playbooks"] else ([], [])
    summary_view: SummaryView | None = None
    if summary and subject and valid_at is None and known_at is None:
        from .summaries import summary as build_summary
        summary_view = yield from _leg("summaries", build_summary(tenant, now, subject), None, failed, notes)
    return fit(ctx.model_copy(update={"ledger_version": state["head"], "items": items, "rules": rules,
                                      "cards": cards, "summary": summary_view, "notes": notes, "working": working,
                                      "gaps": found_gaps, "failed_legs": failed}))
