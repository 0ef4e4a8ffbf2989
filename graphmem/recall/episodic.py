"""Episodic recall: what was said is memory too (docs/design.md §6).

Three things the fact legs of :mod:`graphmem.recall.recall` cannot do on their own:

* **messages as items** — :func:`ask_messages` asks ``cypher/recall/messages.cypher`` for the
  messages (and other sources with text) the task matches: BM25 over English-analysed text and
  author, over CJK bigrams, and the nearest embeddings, fused by weighted reciprocal rank;
* **people by name** — :func:`resolve_people` maps a name in the task ("Caroline", "mel") to the
  speakers and entities of the tenant: exact (case-insensitive) first, then a unique prefix (a
  nickname), then an ``alias`` fact; two candidates for one name are reported, never guessed;
* **time** — :func:`asks_about_past` and :func:`task_range` (:mod:`graphmem.recall.task_time`) read
  "when did…", "last year", "in May 2023", "the second week of November" relative to
  ``valid_at``; the past reaches history (:func:`history_items`: facts that no longer hold, marked
  ``superseded`` or ``expired`` with what holds now), a named range ranks first the messages said
  inside it or telling of a dated episode inside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .wording import day, inline, when
from .items import source_of, source_ref
from .memory_context import ContextItem, ItemWarning
from ..store.ops import Plan, Start, Wait, as_of_many, query_call, run_query
from ..store.projection import to_datetime
from .recall_config import RecallConfig
from .irregular import forms
from .task_time import past_tense, task_range
from .terms import phrase, plan_shaped, scoped
from ..core.text import has_han

__all__ = ["People", "ask_messages", "asks_about_past", "history_items", "lucene_cjk", "lucene_en", "message_items",
           "resolve_people", "task_range"]

_PAST = re.compile(
    r"\b(?:when (?:did|was|were|had)|how long ago|used to|before|previous(?:ly)?|former(?:ly)?|earlier|ago|"
    r"last (?:year|month|week|time|summer|winter|spring|fall|autumn)|back then|originally|at first|"
    r"in (?:19|20)\d\d|yesterday|did .{0,40}\b(?:go|do|visit|buy|make|start|finish|attend|take|get|meet)\b)"
    r"|以前|之前|原来|当时|什么时候|去年|上个月|上周|过去|曾经|那时", re.I)
_NAME = re.compile(r"\b[A-Z][a-z]{1,30}(?:'s)?\b")
_STOP_NAMES = frozenset("""What When Where Who Whom Whose Why How Which Did Does Do Is Are Was Were Has Have Had Can
Could Would Should Will The A An In On At For From To Of And Or But If Tell Show Give Find List Please Remember Based
Given According Yes No Not I My Me We Our You Your He She They Their His Her It Its This That These Those Let Since
Before After During Last Next Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May
June July August September October November December""".split())


# -- the task's words --------------------------------------------------------------------------------

def lucene_en(tenant: str, terms: list[str], speakers: list[str], boost: float) -> str | None:
    """The text leg's Lucene query: every term an escaped phrase over ``text`` (and ``author``, so
    "Caroline" finds what Caroline said), the named speakers' own messages boosted."""
    # A person the task names is asked for as the speaker, not as a word: "Caroline" in the text is
    # mostly someone greeting her, which says nothing about what the question asks.
    named = {s.casefold() for s in speakers}
    words = [t for t in terms if not has_han(t) and t.casefold() not in named]
    if not words and not speakers:
        return None
    # "When did Nate win…?" — the turn says "I won…": an irregular verb's other forms are words too
    told = list(dict.fromkeys(words + [f for w in words for f in forms(w)]))
    parts = [f"text:{phrase(w)}" for w in told] + [f"author:{phrase(w)}" for w in words]
    parts += [f"author:{phrase(s)}^{boost:g}" for s in speakers if boost > 0]
    return scoped(tenant, " OR ".join(parts)) if parts else None


def lucene_cjk(tenant: str, terms: list[str]) -> str | None:
    """The CJK leg's query: the task's Chinese/Japanese bigrams as phrases."""
    grams = [t for t in terms if has_han(t)]
    return scoped(tenant, " OR ".join("text:" + phrase(g) for g in grams)) if grams else None


def asks_about_past(task: str) -> bool:
    """Does the task ask about the past ("when did…", "where did she work", "used to", "last year",
    "two weeks ago", 以前, 什么时候, 了…)? A question in the past tense reaches history even when it
    names no date (issue #44)."""
    return _PAST.search(task) is not None or past_tense(task)


# -- people ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class People:
    """Names in the task resolved to the tenant's speakers and entities."""

    resolved: dict[str, str]  # name as written -> speaker/entity id
    ambiguous: dict[str, list[str]]  # name as written -> the candidates

    @property
    def ids(self) -> list[str]:
        return list(dict.fromkeys(self.resolved.values()))

    def notes(self) -> list[str]:
        return [f"{name!r} could be {' or '.join(repr(c) for c in cands)}: not guessed; name the subject to choose"
                for name, cands in self.ambiguous.items()]


def names_in(task: str) -> list[str]:
    """Capitalised words that may be names ("Caroline", "Mel's" → "Mel"); not question words."""
    out = []
    for m in _NAME.finditer(task):
        word = m.group().removesuffix("'s")
        if word not in _STOP_NAMES and word not in out:
            out.append(word)
    return out[:12]


def resolve_people(tenant: str, task: str) -> Plan[People]:
    """Resolve the names of the task: exact id/speaker (any case), else a unique prefix of at least
    three letters (a nickname), else an ``alias`` fact's subject. Ambiguity is reported."""
    names = names_in(task)
    if not names:
        return People({}, {})
    words = " OR ".join(f"{phrase(n)} OR {re.sub(r'[^A-Za-z]', '', n).lower()}*" for n in names)
    rows = yield from run_query("recall/people", tenant,
                                lucene_authors=plan_shaped(scoped(tenant, f"author:({words})")),
                                lucene_entities=plan_shaped(scoped(tenant, f"uid:({words}) OR name:({words})")),
                                lucene_aliases=plan_shaped(scoped(tenant, f"topic:\"alias\" AND value:({words})")))
    known = [(r["id"], (r["alias"] or r["id"]).casefold()) for r in rows if r["id"]]
    resolved: dict[str, str] = {}
    ambiguous: dict[str, list[str]] = {}
    for n in names:
        key = n.casefold()
        exact = sorted({i for i, k in known if k == key})
        prefix = sorted({i for i, k in known if len(key) >= 3 and k.startswith(key)})
        pick = exact or prefix
        if len(pick) == 1:
            resolved[n] = pick[0]
        elif len(pick) > 1:
            ambiguous[n] = pick
    return People(resolved, ambiguous)


# -- messages ----------------------------------------------------------------------------------------

def ask_messages(tenant: str, terms: list[str], *, known_at: datetime, subject: str | None, session: str | None,
                 speakers: list[str], when: tuple[datetime, datetime] | None, vector: list[float] | None,
                 config: RecallConfig, k_vector: int | None = None, k_deep: int = 0,
                 vector_scan: bool = False) -> Plan[Any]:
    """Start asking what was said that the task matches (``recall/messages``) behind the plan, and
    return the handle :func:`message_items` waits for (None: the task gives nothing to search with).
    It runs on a connection of its own while context() reads the facts: the two reads share
    nothing, and the server has a core for each. ``k_vector``: how many hits to ask the shared
    source vector index for (graphmem.recall.vectors.vector_k; default the config's most), and
    ``k_deep`` how many to ask again when those hold fewer than ``message_limit`` of the tenant's in
    scope (graphmem.recall.vectors.deep_k; 0: straight to the scan); ``vector_scan``: score the
    tenant's own source vectors without asking the index (graphmem.recall.vectors.scan_first).
    Either way the leg is exact for the tenant: the query scans the tenant's own vectors when the
    index's hits come back short."""
    en, cjk = lucene_en(tenant, terms, speakers, config.speaker_boost), lucene_cjk(tenant, terms)
    if en is None and cjk is None and vector is None:
        return None
    k = config.message_limit
    return (yield Start(query_call(
        "recall/messages", tenant, lucene_en=plan_shaped(en), lucene_cjk=plan_shaped(cjk), vector=vector, k=k,
        k_vector=k_vector or k * config.vector_oversample, k_deep=k_deep,
        vector_scan=vector_scan, known_at=known_at, subject=subject, session=session,
        weights=config.leg_weights, rrf_k=config.rrf_k, session_bonus=config.session_bonus,
        range_from=when[0] if when else None, range_to=when[1] if when else None, range_bonus=config.range_bonus,
        range_report_days=config.range_report_days, k_range=config.range_depth,
        neighbours=config.neighbours if config.neighbour_weight > 0 else 0,
        window_minutes=config.neighbour_window_minutes)))


def message_items(handle: Any, config: RecallConfig,
                  ) -> Plan[tuple[list[ContextItem], dict[str, list[dict[str, Any]]]]]:
    """What was said that the task matches (the read :func:`ask_messages` started), best first, as
    ``message`` items; and the facts drawn from each (by source id), for :func:`mark_replaced`."""
    if handle is None:
        return [], {}
    rows: list[dict[str, Any]] = yield Wait(handle)
    items = [_message(r, r["rrf"] * config.message_weight, list(r["legs"]), [d["fact"] for d in r["drawn"]])
             for r in rows]
    drawn = {r["source"]: r["drawn"] for r in rows}
    # The turn before and after each of the best hits (found by the same query): the question it
    # answered, the answer it got. A neighbour scores a share of its hit's score, so the context of
    # the best hits outranks weak hits.
    have = {i.source.id: i for i in items if i.source}
    for r, hit_score in zip(rows, [i.score for i in items]):
        for n in r["near"]:
            s = hit_score * config.neighbour_weight
            leg = f"{'before' if n['side'] < 0 else 'after'}:{r['source']}"
            if n["source"] in have:
                old = have[n["source"]]
                old.score, old.legs = max(old.score, s), old.legs + [leg]
            else:
                have[n["source"]] = _message(n, s, [leg], [])
                items.append(have[n["source"]])
    return items, drawn


def _message(r: dict[str, Any], score: float, legs: list[str], drawn: list[str]) -> ContextItem:
    return ContextItem(kind="message", subject=r["author"] or "",
                       source=source_ref(r["source"], r["kind"], r["at"], r["author"], r["text"],
                                         relayed_by=r.get("relayed_by")),
                       version=r["version"], recorded_at=to_datetime(r["at"]), expires_at=to_datetime(r["expires_at"]),
                       session=r["session"], score=score, legs=legs, drawn=drawn)


def fold(items: list[ContextItem], messages: list[ContextItem]) -> list[ContextItem]:
    """Merge messages into the fact items: a message that yielded a shown fact is not shown twice —
    the fact (which shows the message's text as its source) keeps the better of the two scores."""
    by_source: dict[str, list[ContextItem]] = {}
    for i in items:
        if i.source is not None and i.kind in ("fact", "conflict", "history"):
            by_source.setdefault(i.source.id, []).append(i)
    out = list(items)
    for m in messages:
        assert m.source is not None
        facts = by_source.get(m.source.id)
        if facts:
            for f in facts:
                f.score = max(f.score, m.score)
                f.legs = sorted(set(f.legs) | {"message:" + leg for leg in m.legs})
            continue
        out.append(m)
    return out


def mark_replaced(tenant: str, now: datetime, messages: list[ContextItem], drawn: dict[str, list[dict[str, Any]]],
                  t: datetime, k: datetime, limit: int = 8) -> Plan[None]:
    """A shown message whose drawn facts no longer hold says so, with what holds now (one query for
    all of them). Only facts that reached the timeline count: an unconfirmed candidate (what a
    model drew from chat, docs/design.md §5) never held, so nothing has replaced it."""
    asks: list[tuple[ContextItem, dict[str, Any]]] = []
    for m in messages:
        said = drawn.get(m.source.id if m.source else "", [])
        asks += [(m, d) for d in [d for d in said if d.get("kind") == "set" and not d.get("quoted")
                                  and d.get("held")][:2]]
    asks = asks[:limit]
    answers = yield from as_of_many(tenant, now, [(d["subject"], d["topic"], d["env"] or None) for _, d in asks],
                                    valid_at=t, known_at=k)
    for (m, d), a in zip(asks, answers):
        current = a.values if a.values is not None else ([] if a.value is None else [a.value])
        if a.fact == d["fact"] or d["value"] in current:
            continue
        then = _holding(a, current)
        told = f"said {_words(d['topic'])} = {inline(d['value'])} for {d['subject']}"
        starts = to_datetime(d.get("valid_from"))
        if starts is not None and starts > t:  # said of a later time: nothing has replaced it
            held = f"; then: {then}" if current or a.conflict else ""
            m.warnings.append(ItemWarning(kind="not_yet_valid", message=(
                f"{told} from {when(starts)}: not yet valid at {when(t)}{held}")))
            continue
        m.warnings.append(ItemWarning(kind="superseded", message=(
            f"{told}; at {when(t)} that no longer holds — {'now' if t >= k else 'then'}: {then}")))


def _words(topic: str) -> str:
    """A topic id as words: ``home_address`` → home address."""
    return topic.replace("_", " ")


def _holding(a: Any, current: list[Any]) -> str:
    return " | ".join(map(str, a.conflict)) if a.conflict else (", ".join(map(str, current)) or "nothing")


def history_items(tenant: str, now: datetime, lucene: str | None, subject: str | None, t: datetime, k: datetime,
                  shown: set[str], limit: int, since: datetime | None = None) -> Plan[list[ContextItem]]:
    """Facts the task matches that held once but not at ``t`` (as known at ``k``): history, marked
    ``superseded`` (something replaced it) or ``expired``, with what holds at ``t``. Never current.
    ``since``: only what still held at or after it (a question about "2024" wants 2024's values,
    not every older one)."""
    if lucene is None:
        return []
    rows = yield from run_query("recall/history", tenant, lucene=plan_shaped(lucene), subject=subject, valid_at=t,
                                known_at=k, k=limit)
    out = []
    ranked = [(rank, r) for rank, r in enumerate(rows, 1) if r["fact"] not in shown
              and (since is None or r["valid_to"] is None or to_datetime(r["valid_to"]) > since)]  # type: ignore[operator]
    answers = yield from as_of_many(tenant, now, [(r["subject"], r["topic"], r["env"] or None) for _, r in ranked],
                                    valid_at=t, known_at=k)
    for (rank, r), a in zip(ranked, answers):
        current = a.values if a.values is not None else ([] if a.value is None else [a.value])
        if r["value"] in current:
            continue
        expired = r["expires_at"] is not None and to_datetime(r["expires_at"]) <= k  # type: ignore[operator]
        now_text = _holding(a, current)
        kind = "expired" if expired else "superseded"
        until = to_datetime(r["valid_to"])
        out.append(ContextItem(
            kind="history", subject=r["subject"], topic=r["topic"], env=r["env"] or "", value=r["value"],
            is_entity=bool(r["is_entity"]), valid_from=to_datetime(r["valid_from"]), valid_to=until,
            recorded_at=to_datetime(r["recorded_at"]), authority=r["authority"], status="history",
            version=r["version"], fact=r["fact"], source=source_of(r, evidence=r.get("evidence")),
            score=1.0 / (60 + rank), legs=[f"history:{rank}"],
            warnings=[ItemWarning(kind=kind, message=(
                f"{'expired' if expired else 'held until'} {when(until) if until else '?'}; at {when(t)} it no "
                f"longer holds — {'now' if t >= k else 'then'}: {now_text}"))]))
    return out
