"""Recall: "what should I know for this task?" as one read step (docs/design.md §6, issue #5).

:func:`context` is a plan like every other operation (sync and async clients run it alike):

1. **understand the task** without a model — the words and identifiers it uses, the topics it asks
   about (the vocabulary's ``cues`` and ``nouns``), the entity ids it names (:func:`analyse`);
2. **ask Neo4j** (``cypher/recall/candidates.cypher``), which works in the order docs/design.md fixes:
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

What was said (the message leg, graphmem.recall.episodic) is read on a connection of its own from
the moment the task's vector is known, while steps 2–5 run: the two reads share nothing, and the
server works on both at once (a shorter call, not less work).

Nothing here writes to the ledger; the only writes are derived copies (embeddings, summaries).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from .budget import count_tokens
from .episodic import (People, ask_messages, asks_about_past, fold, history_items, mark_replaced, message_items,
                       names_in, resolve_people, task_range)
from .task_time import QuestionTime, question_time
from .fact_legs import fact_candidates, quoted_items, with_overlays
from .items import mark_relayed, warn, weigh
from .terms import MAX_MENTIONS, TaskTerms, analyse
from .vectors import deep_k, embed_pending, ensure_vector_index, scan_first, task_vector, vector_k, vector_leg
from ..core.errors import AccessError, ValidationError
from ..core.models import MAX_TEXT, check_ids
from ..core.text import HAN_RUN
from .context_text import fit, header
from .wording import span
from .memory_context import Card, ContextItem, Gap, MemoryContext, Rule, SummaryView
from ..store.ops import Plan, Start, Wait, query_call, run_query, view_times
from .recall_config import RecallConfig, recall_config

__all__ = ["TaskTerms", "analyse", "context", "embed_pending", "ensure_vector_index"]


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


def _playbooks(tenant: str, terms: TaskTerms, area: str | None) -> Plan[tuple[list[Rule], list[Card]]]:
    from ..playbooks.playbooks import MAX_CARDS, applicable

    found = yield from applicable(tenant, area)
    words = {t.lower() for t in terms.terms} | set(terms.topics)

    def overlaps(*texts: Any) -> bool:
        blob = " ".join(str(x) for x in texts if x).lower()
        return any(w in blob for w in words if len(w) > 2 or HAN_RUN.match(w))

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


@dataclass
class _Ask:
    """One context() call, resolved before its legs run: the view, the knobs, the task's terms (with
    the people it names as roots), ``recall/begin``'s row, and the notes and failed legs so far."""

    tenant: str
    now: datetime
    task: str
    subject: str | None
    env: str | None
    session: str | None
    t: datetime
    k: datetime
    cfg: RecallConfig
    terms: TaskTerms
    people: People
    state: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    asked: QuestionTime | None = None  # the time the task's words name, when no valid_at was given

    @property
    def envs(self) -> list[str]:
        return [""] + ([self.env] if self.env else [])

    def leg(self, name: str, plan: Plan[Any], default: Any) -> Plan[Any]:
        return _leg(name, plan, default, self.failed, self.notes)


def _resolve(tenant: str, now: datetime, task: str, subject: str | None, env: str | None, session: str | None,
             t: datetime, k: datetime, cfg: RecallConfig) -> Plan[_Ask]:
    """The task's terms, the people it names (roots of the graph leg, like the ids it names) and the
    tenant's state (ledger head, embeddings, which legs have anything to search). When the task
    names someone, ``recall/begin`` runs behind ``recall/people``: one round trip, not two."""
    terms = analyse(task)
    if subject is None and names_in(task):  # two reads that share nothing: the server runs them at once
        begun = yield Start(query_call("recall/begin", tenant))
        people = yield from resolve_people(tenant, task)
        state = (yield Wait(begun))[0]
    else:
        people, state = People({}, {}), (yield from _begin(tenant))
    if people.ids:
        terms = TaskTerms(terms=terms.terms, topics=terms.topics,
                          mentions=list(dict.fromkeys(people.ids + terms.mentions))[:MAX_MENTIONS])
    return _Ask(tenant, now, task, subject, env, session, t, k, cfg, terms, people, state, notes=people.notes())


def _fact_items(ask: _Ask, vector_hits: list[str], include_candidates: bool) -> Plan[list[ContextItem]]:
    """What the timeline holds for the task, with the asked view's overlays, weighed and warned."""
    items: list[ContextItem] = []
    cfg, t, k = ask.cfg, ask.t, ask.k
    if cfg.facts and ask.state["held"]:  # the legs search the timeline: nothing on it, nothing to find
        items = yield from fact_candidates(ask.tenant, ask.terms, ask.subject, ask.envs, t, k, vector_hits, cfg)
    if cfg.facts and ask.state["facts"]:
        items = yield from with_overlays(ask.tenant, ask.now, items, ask.subject, ask.envs, t, k, ask.session,
                                         include_candidates, cfg)
    if ask.env:  # an environment's own value replaces the general one for the same subject and topic
        specific = {(i.subject, i.topic) for i in items if i.env == ask.env}
        items = [i for i in items if i.env == ask.env or (i.subject, i.topic) not in specific]
    stale_after, expiring_within = timedelta(days=cfg.stale_after_days), timedelta(days=cfg.expiring_within_days)
    for i in items:
        warn(i, t, k, stale_after, expiring_within)
        i.score = weigh(i, cfg)
    return items


def _gaps(ask: _Ask, items: list[ContextItem], valid_at: Any) -> Plan[list[Gap]]:
    """What the task asks about that memory does not hold (graphmem.recall.gaps)."""
    from .gaps import gap_leg

    named = set(ask.terms.mentions)  # whom the task is about: the subject, the people it names, the ids it names
    subjects = [ask.subject] if ask.subject else list(dict.fromkeys(
        ask.people.ids + [i.subject for i in items if i.kind in ("fact", "conflict") and i.subject in named]))
    found: list[Gap] = yield from ask.leg("gaps", gap_leg(
        ask.tenant, ask.now, ask.task, ask.terms, subjects, ask.t, ask.k, valid_at, ask.env, ask.session,
        timedelta(days=ask.cfg.expiring_within_days), items, held=ask.state["held"],
        asked=span(ask.asked.start, ask.asked.end) if ask.asked is not None else None), [])
    return found


def _ask_messages(ask: _Ask, vector: list[float] | None) -> Plan[Any]:
    """Start the message leg (what was said) behind the plan; None when messages are off."""
    cfg = ask.cfg
    if not cfg.messages:
        return None
    mine = ask.state["source_vectors"]
    k_vector = vector_k(cfg.message_limit, cfg.vector_oversample, mine, ask.state["source_index"])
    return (yield from ask_messages(
        ask.tenant, ask.terms.terms, known_at=ask.k, subject=ask.subject, session=ask.session,
        speakers=[ask.subject] if ask.subject else ask.people.ids,
        when=(ask.asked.start, ask.asked.end) if ask.asked else task_range(ask.task, ask.t), vector=vector,
        config=cfg, k_vector=k_vector, k_deep=deep_k(k_vector, mine), vector_scan=scan_first(mine)))


def _past_and_said(ask: _Ask, items: list[ContextItem], said: Any) -> Plan[list[ContextItem]]:
    """Quoted old claims on the slots shown; facts that no longer hold when the task asks about the
    past; and what was said (messages: the read :func:`_ask_messages` started), folded under the
    facts drawn from them."""
    cfg, t, k = ask.cfg, ask.t, ask.k
    items = items + (yield from quoted_items(ask.tenant, items, t, k, cfg))
    past = asks_about_past(ask.task) or (ask.asked is not None and ask.asked.past)
    if cfg.facts and cfg.history and ask.state["held"] and past:
        # a question about a named stretch ("in 2024") sees what held in it, not every older value
        items += yield from history_items(ask.tenant, ask.now, ask.terms.lucene(ask.tenant), ask.subject, t, k,
                                          {i.fact for i in items if i.fact}, cfg.limit // 2,
                                          since=ask.asked.start if ask.asked is not None else None)
    if ask.asked is not None and ask.asked.past:  # the words named a past time: say what holds now
        yield from _since_replaced(ask, items)
    if cfg.messages:
        messages, drawn = yield from message_items(said, cfg)
        items = fold(items, messages)
        yield from mark_replaced(ask.tenant, ask.now, [i for i in items if i.kind == "message"], drawn, t, k)
    mark_relayed(items)  # words an agent relayed as the user's say so (core.relay)
    return items


def _since_replaced(ask: _Ask, items: list[ContextItem]) -> Plan[None]:
    """A question about the past is answered with what held then; a fact that has ended since says
    so, with what holds at ``known_at`` — the answer is history, not the current value (one query)."""
    from .wording import when
    from ..store.ops import as_of_many
    from .memory_context import ItemWarning

    ended = [i for i in items if i.kind == "fact" and i.valid_to is not None and i.valid_to <= ask.k]
    if not ended:
        return
    answers = yield from as_of_many(ask.tenant, ask.now, [(i.subject, i.topic, i.env or None) for i in ended],
                                    valid_at=ask.k, known_at=ask.k)
    for i, a in zip(ended, answers):
        current = a.values if a.values is not None else ([] if a.value is None else [a.value])
        now = " | ".join(map(str, a.conflict)) if a.conflict else (", ".join(map(str, current)) or "nothing")
        ending = next((w for w in i.warnings if w.kind == "expiring"), None)
        if ending is not None:  # one warning says both: it ended soon after, and what holds now
            ending.message += f" — now: {now}"
        else:
            i.warnings.append(ItemWarning(kind="superseded", message=f"held then; ended {when(i.valid_to)} — "
                                                                     f"now: {now}"))


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
    # "Where did Maya work in March 2026?": without a valid_at the question's own words say when
    asked = question_time(task, t) if valid_at is None else None
    if asked is not None:
        t = asked.at
    ctx = MemoryContext(task=task, tenant=tenant, subject=subject, env=env, session=session, valid_at=t, known_at=k,
                        ledger_version=10**12, budget_tokens=budget_tokens,
                        named_range=(asked.start, asked.end) if asked is not None else None)
    if count_tokens(header(ctx)) + 8 > budget_tokens:  # before any I/O: a refused call touches nothing
        raise ValidationError(f"budget_tokens={budget_tokens} does not even hold the context's header")
    ask = yield from _resolve(tenant, now, task, subject, env, session, t, k, cfg)
    ask.asked = asked
    vector = yield from ask.leg("vector", task_vector(tenant, task, embedder, ask.notes, ask.state), None)
    said = yield from _ask_messages(ask, vector)  # read on another connection while the facts are read here
    vector_hits = (yield from ask.leg("vector", vector_leg(tenant, vector, cfg.limit, ask.state,
                                                           cfg.fact_vector_min_score), [])) if vector else []
    from ..working.working_store import live_items
    working = (yield from ask.leg("working", live_items(tenant, session), [])) if session else []
    items = yield from _fact_items(ask, vector_hits, include_candidates)
    found_gaps = (yield from _gaps(ask, items, valid_at if asked is None else t)) if gaps else []
    items = yield from _past_and_said(ask, items, said)
    from .gaps import level
    level(items, found_gaps)
    items.sort(key=lambda i: (-i.score, i.kind in ("quoted", "history"), i.subject, i.topic, str(i.value),
                              i.source.id if i.source else ""))
    rules, cards = (yield from ask.leg("playbooks", _playbooks(tenant, ask.terms, area), ([], []))) \
        if playbooks and ask.state["playbooks"] else ([], [])
    summary_view: SummaryView | None = None
    if summary and subject and valid_at is None and known_at is None and asked is None:
        from .summaries import summary as build_summary
        summary_view = yield from ask.leg("summaries", build_summary(tenant, now, subject), None)
    return fit(ctx.model_copy(update={"ledger_version": ask.state["head"], "items": items, "rules": rules,
                                      "cards": cards, "summary": summary_view, "notes": ask.notes,
                                      "working": working, "gaps": found_gaps, "failed_legs": ask.failed}))
