"""Gaps: what a task needs that memory cannot decide, so the agent asks instead of inventing.

A task needs a topic when it names it (``home_address``, "allergy": the vocabulary's cues) or when
it matches a **need** — a kind of information several topics can answer, from competing scopes:
where to send a package is the ``delivery_address`` if one was given, else the home address — or,
during a trip, the trip's lodging. For each subject of the task, at the valid time the task is
about (its ``valid_at``, else the day it names, else now), a need or topic is a gap when:

* ``missing`` — nothing holds;
* ``conflict`` — equally trusted sources disagree;
* ``expiring`` — the one value ends (``valid_to``) or expires (``expires_at``) within the window;
* ``competing`` — values of more than one of the need's topics hold at once, at least one of them
  bounded in time (a scope that holds for a while, like a trip's lodging: it has a ``valid_to``),
  and no *decisive* topic (one the person gave for exactly this, like ``delivery_address``)
  settles it. Among open-ended values the need's order of topics decides — the home address
  before the office — so a standing second address is no gap; a bounded one is an exception to
  the standing value that memory cannot rank.

Needs are configuration (:class:`GapNeed`, :data:`DEFAULT_NEEDS`), not code. Nothing here writes.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .context_text import day
from .memory_context import Gap
from ..store.ops import Plan, as_of, as_of_many, assertions, empty_answer

__all__ = ["DEFAULT_NEEDS", "GapNeed", "find_gaps", "gap_leg", "level"]


class GapNeed(BaseModel):
    """A kind of information a task can need, the cues that say it does, the topics that answer it."""

    model_config = ConfigDict(frozen=True)

    name: str
    cues: list[str]
    topics: list[str] = Field(min_length=1, description="in order of preference among open-ended values")
    decisive: list[str] = Field(default_factory=list, description="a topic that, holding alone, settles the need")
    question: str = "Which {need} should I use for {subject}?"


DEFAULT_NEEDS: tuple[GapNeed, ...] = (
    GapNeed(name="destination",
            cues=["send", "ship", "deliver", "delivery", "package", "parcel", "mail it", "post it", "courier",
                  "forward it", "寄", "快递", "包裹", "送到", "收件"],
            topics=["delivery_address", "trip_lodging", "home_address", "office"], decisive=["delivery_address"],
            question="Where should it go for {subject} on {at}: {options}?"),
    GapNeed(name="reply language", cues=["reply in", "which language", "用什么语言", "回复语言"],
            topics=["reply_language"]),
)


class _Expiring:
    """An answer and the expiry of the assertion behind it (Answer does not carry it)."""

    def __init__(self, answer: Any, expires_at: datetime) -> None:
        self._a, self.expires_at = answer, expires_at

    def __getattr__(self, name: str) -> Any:
        return getattr(self._a, name)


def _option(topic: str, a: Any) -> dict[str, Any]:
    return {"topic": topic, "value": a.value if a.conflict is None else " | ".join(map(str, a.conflict)),
            "valid_from": day(a.valid_from) if a.valid_from else None,
            "valid_to": day(a.valid_to) if a.valid_to else None, "source": a.source}


def _ends_soon(a: Any, t: datetime, k: datetime, window: timedelta) -> bool:
    """The value stops being trusted soon (its ``expires_at`` is within the window of now), or it
    ends within a day of the time the task is about."""
    expires = getattr(a, "expires_at", None)
    return (expires is not None and expires <= k + window) or \
        (a.valid_to is not None and a.valid_to <= t + timedelta(days=1))


def _judge(need: str, subject: str, held: list[tuple[str, Any]], decisive: list[str], t: datetime, k: datetime,
           window: timedelta, template: str) -> Gap | None:
    """One need (or topic) for one subject: a gap, or None when one value decides. ``held`` is in
    the need's order of topics."""
    at = day(t)
    order = [tp for tp, _ in held]
    opts = [_option(topic, a) for topic, a in held]
    names = " or ".join(o["topic"] for o in opts) or need

    def gap(kind: str, message: str) -> Gap:
        q = template.format(need=need, subject=subject, at=at, options=names)
        return Gap(need=need, subject=subject, kind=kind, at=t, options=opts, message=message, question=q)
    if not held:
        return gap("missing", f"nothing known holds at {at}; ask rather than guess.")
    settled = [(tp, a) for tp, a in held if tp in decisive and a.conflict is None]
    if settled and not _ends_soon(settled[0][1], t, k, window):
        return None
    conflicts = [tp for tp, a in held if a.conflict]
    if conflicts:
        return gap("conflict", f"sources disagree on {', '.join(conflicts)} and nothing decides.")
    # open-ended values: the first in the need's order stands; values bounded in time compete with it
    standing = [(tp, a) for tp, a in held if a.valid_to is None]
    held = [(tp, a) for tp, a in held if a.valid_to is not None] + standing[:1]
    held.sort(key=lambda x: order.index(x[0]) if x[0] in order else len(order))
    opts = [_option(topic, a) for topic, a in held]
    names = " or ".join(o["topic"] for o in opts) or need
    if len({str(a.value) for _, a in held}) > 1:
        return gap("competing", f"{len(held)} scopes hold at {at} ({names}); memory cannot tell which one "
                                "this task means.")
    if _ends_soon(held[0][1], t, k, window):
        return gap("expiring", "the value ends right after that time or expires soon; confirm it still holds.")
    return None


def find_gaps(tenant: str, now: datetime, task_lower: str, topics: list[str], subjects: list[str], t: datetime,
              k: datetime, env: str | None, session: str | None, window: timedelta,
              needs: tuple[GapNeed, ...] = DEFAULT_NEEDS, on_timeline: bool = True) -> Plan[list[Gap]]:
    """The gaps of a task for its subjects at valid time ``t`` as known at ``k`` (see the module).
    ``on_timeline=False``: no fact of the tenant ever reached the timeline (``recall/begin``), so every
    slot's default view is empty and is not asked for."""
    from .terms import cue_in

    out: list[Gap] = []
    asked: list[tuple[str, list[str], list[str], str]] = []
    covered: set[str] = set()
    for need in needs:
        if any(cue_in(c, task_lower) for c in need.cues):
            asked.append((need.name, need.topics, need.decisive, need.question))
            covered.update(need.topics)
    asked += [(tp, [tp], [], "What is {subject}'s {need} at {at}?") for tp in topics if tp not in covered]
    from ..extract.vocabulary import Vocabulary
    known = set(Vocabulary.default().topics) | {t for n in needs for t in n.topics}
    pairs = list(dict.fromkeys((subject, topic) for subject in subjects for _, wanted, _, _ in asked
                               for topic in wanted))
    if session is None and not on_timeline:
        answers = {(s, tp): empty_answer(s, tp, env, t, k) for s, tp in pairs}
    elif session is None:  # the default view: every slot the task needs in one round trip
        answers = dict(zip(pairs, (yield from as_of_many(tenant, now, [(s, tp, env) for s, tp in pairs],
                                                         valid_at=t, known_at=k))))
    else:
        answers = {}
        for s, tp in pairs:
            answers[(s, tp)] = yield from as_of(tenant, now, s, tp, valid_at=t, known_at=k, env=env, session=session)
    for subject in subjects:
        for name, wanted, decisive, template in asked:
            held: list[tuple[str, Any]] = []
            for topic in wanted:
                a = answers[(subject, topic)]
                if a.conflict or a.value is not None or a.values:
                    slot = yield from assertions(tenant, subject, topic, env)
                    expiry = next((x.expires_at for x in slot if x.uid == a.fact), None)
                    held.append((topic, a if expiry is None else
                                 _Expiring(a, expiry)))
            if not held and name not in known and name not in {n.name for n in needs}:
                continue  # an identifier the task wrote, not a topic anyone uses: nothing to ask
            g = _judge(name, subject, held, decisive, t, k, window, template)
            if g is not None:
                out.append(g)
    return out


def gap_leg(tenant: str, now: datetime, task: str, terms: Any, subjects: list[str], t: datetime, k: datetime,
             valid_at: Any, env: str | None, session: str | None, window: timedelta,
             items: list[Any], held: bool = True) -> Plan[list[Any]]:
    """Gaps at the time the task is about; items of competing scopes are flagged and ranked level."""
    from .episodic import task_range
    from .memory_context import ItemWarning
    when = t
    if valid_at is None:
        named = task_range(task, t)
        when = named[0] if named is not None and named[1] - named[0] <= timedelta(days=1) else t
    gaps = yield from find_gaps(tenant, now, task.lower(), terms.topics, subjects, when, k, env, session, window,
                                on_timeline=held)
    for g in gaps:  # a conflict or an expiry already carries its own warning
        for i in (_options(items, g) if g.kind == "competing" else []):
            i.warnings.append(ItemWarning(kind="gap", message=f"one of the options for {g.need}: {g.kind}; ask "
                                                              "which applies"))
    return gaps


def _options(items: list[Any], gap: Gap) -> list[Any]:
    slots = {(gap.subject, o["topic"]) for o in gap.options}
    return [i for i in items if (i.subject, i.topic) in slots and i.kind in ("fact", "conflict")]


def level(items: list[Any], gaps: list[Gap]) -> None:
    """The options of a competing or conflicting gap rank level: none is put first as the answer."""
    for g in gaps:
        if g.kind in ("competing", "conflict"):
            hit = _options(items, g)
            top = max((i.score for i in hit), default=0.0)
            for i in hit:
                i.score = top
