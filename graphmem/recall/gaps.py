"""Gaps: what a task needs that memory cannot decide, so the agent asks instead of inventing.

A task needs a topic when it names it (``home_address``, "allergy": the vocabulary's cues) or when
it matches a **need** — a kind of information several topics can answer, from competing scopes:
where to send a package is the ``delivery_address`` if one was given, else the home address — or,
during a trip, the trip's lodging. For each subject of the task, at the valid time the task is
about (its ``valid_at``, else the day it names, else now), a need or topic is a gap when:

* ``missing`` — nothing holds (and no other topic the task named by the same word holds either:
  "where does Maya live" is answered by her home address, so her home city is not asked for);
* ``conflict`` — equally trusted sources disagree;
* ``expiring`` — the one value ends (``valid_to``) or expires (``expires_at``) within the window;
* ``competing`` — values of more than one of the need's topics hold at once, at least one of them
  bounded in time (a scope that holds for a while, like a trip's lodging: it has a ``valid_to``),
  and no *decisive* topic (one the person gave for exactly this, like ``delivery_address``)
  settles it. Among open-ended values the need's order of topics decides — the home address
  before the office — so a standing second address is no gap; a bounded one is an exception to
  the standing value that memory cannot rank.

Needs are configuration (:class:`GapNeed`, :data:`DEFAULT_NEEDS`), not code. Nothing here writes.

A gap's question is written in the user's words (issue #44): the person as the task names them,
the topic as words ("home address", not ``home_address``), the values that compete rather than the
topics they sit in, and the time as a day, a month or a year ("on 2026-10-05", "in 2024", "now"),
never an ISO timestamp.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .wording import day
from .memory_context import Gap
from ..store.ops import Plan, as_of, as_of_many, empty_answer, run_query
from ..store.projection import to_datetime

__all__ = ["DEFAULT_NEEDS", "GapNeed", "expiries", "find_gaps", "gap_leg", "level"]


class GapNeed(BaseModel):
    """A kind of information a task can need, the cues that say it does, the topics that answer it."""

    model_config = ConfigDict(frozen=True)

    name: str
    cues: list[str]
    topics: list[str] = Field(min_length=1, description="in order of preference among open-ended values")
    decisive: list[str] = Field(default_factory=list, description="a topic that, holding alone, settles the need")
    question: str = Field("Which {need} should I use for {subject}?",
                          description="fields: {need} (as words), {subject} (as the task names them), {at} (the "
                                      "time in words: now, on a day, in a month or year), {options} (the values)")


DEFAULT_NEEDS: tuple[GapNeed, ...] = (
    GapNeed(name="destination",
            cues=["send", "ship", "deliver", "delivery", "package", "parcel", "mail it", "post it", "courier",
                  "forward it", "寄", "快递", "包裹", "送到", "收件"],
            topics=["delivery_address", "trip_lodging", "home_address", "office"], decisive=["delivery_address"],
            question="Where should it go for {subject} {at}: {options}?"),
    GapNeed(name="reply language", cues=["reply in", "which language", "用什么语言", "回复语言"],
            topics=["reply_language"]),
)


class _Expiring:
    """An answer and the expiry of the assertion behind it (Answer does not carry it)."""

    def __init__(self, answer: Any, expires_at: datetime) -> None:
        self._a, self.expires_at = answer, expires_at

    def __getattr__(self, name: str) -> Any:
        return getattr(self._a, name)


def _words(topic: str) -> str:
    return topic.replace("_", " ")


def _choices(opts: list[dict[str, Any]]) -> str:
    """The values a question offers, each with what it is in words: 海星酒店 (trip lodging, through 2026-10-07)."""
    def one(o: dict[str, Any]) -> str:
        end = str(o.get("valid_to") or "")
        if len(end) == 10:  # a midnight: the day before is the last it holds
            until = f", through {(date.fromisoformat(end) - timedelta(days=1)).isoformat()}"
        else:
            until = f", until {end.replace('T', ' ').replace(':00Z', ' UTC')}" if end else ""
        return f"{o['value']} ({_words(str(o['topic']))}{until})"
    return " or ".join(one(o) for o in opts)


def _option(topic: str, a: Any) -> dict[str, Any]:
    return {"topic": topic, "value": a.value if a.conflict is None else " | ".join(map(str, a.conflict)),
            "valid_from": day(a.valid_from) if a.valid_from else None,
            "valid_to": day(a.valid_to) if a.valid_to else None, "source": a.source}


def _ends_soon(a: Any, t: datetime, k: datetime, window: timedelta) -> bool:
    """The value stops being trusted soon (its ``expires_at`` is within the window of now), or it
    ends within a day of the time the task is about."""
    expires = getattr(a, "expires_at", None)
    # an end already passed when the question is asked (a question about the past) is history, not a gap
    return (expires is not None and expires <= k + window) or \
        (a.valid_to is not None and a.valid_to <= t + timedelta(days=1) and a.valid_to > k)


def _judge(need: str, subject: str, held: list[tuple[str, Any]], decisive: list[str], t: datetime, k: datetime,
           window: timedelta, template: str, said: tuple[str, str] | None = None) -> Gap | None:
    """One need (or topic) for one subject: a gap, or None when one value decides. ``held`` is in
    the need's order of topics. ``said``: the subject as the task names them and the time in words."""
    at = day(t)
    who, when_words = said or (subject, "now" if t == k else f"on {at}")
    order = [tp for tp, _ in held]
    opts = [_option(topic, a) for topic, a in held]

    def gap(kind: str, message: str) -> Gap:
        q = template.format(need=_words(need), subject=who, at=when_words, options=_choices(opts) or _words(need))
        if kind == "conflict":
            q = f"Which {_words(need)} is right for {who} {when_words}: {_choices(opts)}?"
        elif kind == "expiring":
            q = f"Does {who}'s {_words(need)} {_choices(opts)} still hold {when_words}?"
        return Gap(need=need, subject=subject, kind=kind, at=t, options=opts, message=message, question=q)
    if not held:
        return gap("missing", "nothing known holds then")
    settled = [(tp, a) for tp, a in held if tp in decisive and a.conflict is None]
    if settled and not _ends_soon(settled[0][1], t, k, window):
        return None
    conflicts = [tp for tp, a in held if a.conflict]
    if conflicts:
        return gap("conflict", f"sources disagree on the {', '.join(_words(c) for c in conflicts)} and nothing "
                               "decides")
    # open-ended values: the first in the need's order stands; values bounded in time compete with it
    standing = [(tp, a) for tp, a in held if a.valid_to is None]
    held = [(tp, a) for tp, a in held if a.valid_to is not None] + standing[:1]
    held.sort(key=lambda x: order.index(x[0]) if x[0] in order else len(order))
    opts = [_option(topic, a) for topic, a in held]
    if len({str(a.value) for _, a in held}) > 1:
        return gap("competing", f"{len(held)} hold then; memory cannot tell which this task means")
    if _ends_soon(held[0][1], t, k, window):
        return gap("expiring", "it ends right after then or expires soon")
    return None


def _same_word(task_lower: str, topics: list[str]) -> dict[str, set[str]]:
    """For each topic the task named, the other named topics it shares a cue with ("live" names
    both the home address and the home city): one of them holding answers the others."""
    from ..extract.vocabulary import Vocabulary
    from .terms import cue_in

    vocab = Vocabulary.default().topics
    cues: dict[str, set[str]] = {}
    for tp in topics:
        rules = vocab.get(tp)
        if rules is None:
            continue
        found = [*rules.cues.get("en", []), *rules.cues.get("zh", []), *rules.nouns.get("en", []),
                 *rules.nouns.get("zh", [])]
        cues[tp] = {c.lower() for c in found if cue_in(c, task_lower)}
    return {tp: {o for o in cues if o != tp and cues[o] & mine} for tp, mine in cues.items()}


def _named_as(task_lower: str, task: str, subject: str) -> str:
    """The subject as the task writes it ("Maya" for ``maya``), else its id."""
    at = task_lower.find(subject.lower())
    return task[at:at + len(subject)] if at >= 0 and len(task) == len(task_lower) else subject


def find_gaps(tenant: str, now: datetime, task_lower: str, topics: list[str], subjects: list[str], t: datetime,
              k: datetime, env: str | None, session: str | None, window: timedelta,
              needs: tuple[GapNeed, ...] = DEFAULT_NEEDS, on_timeline: bool = True, task: str | None = None,
              asked: str | None = None) -> Plan[list[Gap]]:
    """The gaps of a task for its subjects at valid time ``t`` as known at ``k`` (see the module).
    ``on_timeline=False``: no fact of the tenant ever reached the timeline (``recall/begin``), so every
    slot's default view is empty and is not asked for. ``task`` (as written) and ``asked`` (the
    time it names, in words: "in 2024") word the questions as the user would."""
    from .terms import cue_in

    out: list[Gap] = []
    asked_for: list[tuple[str, list[str], list[str], str]] = []
    covered: set[str] = set()
    for need in needs:
        if any(cue_in(c, task_lower) for c in need.cues):
            asked_for.append((need.name, need.topics, need.decisive, need.question))
            covered.update(need.topics)
    asked_for += [(tp, [tp], [], "What is {subject}'s {need} {at}?" if t >= k else "What was {subject}'s {need} {at}?")
              for tp in topics if tp not in covered]
    from ..extract.vocabulary import Vocabulary
    known = set(Vocabulary.default().topics) | {t for n in needs for t in n.topics}
    pairs = list(dict.fromkeys((subject, topic) for subject in subjects for _, wanted, _, _ in asked_for
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
    siblings = _same_word(task_lower, topics)
    missing: set[tuple[str, str]] = set()
    if asked is None:
        when_words = "now" if t == k else f"on {day(t, date_only=True)}"
    else:  # graphmem.recall.wording.span: 2024, 2026-03, a day, or "first to last day"
        when_words = f"on {asked}" if len(asked) == 10 else (f"from {asked}" if " to " in asked else f"in {asked}")
    expiry = yield from expiries(tenant, [a.fact for a in answers.values() if _holds(a) and a.fact])
    for subject in subjects:
        said = (_named_as(task_lower, task or task_lower, subject), when_words)
        for name, wanted, decisive, template in asked_for:
            held: list[tuple[str, Any]] = []
            for topic in wanted:
                a = answers[(subject, topic)]
                if a.conflict or a.value is not None or a.values:
                    ends = expiry.get(a.fact or "")
                    held.append((topic, a if ends is None else _Expiring(a, ends)))
            if not held and name not in known and name not in {n.name for n in needs}:
                continue  # an identifier the task wrote, not a topic anyone uses: nothing to ask
            g = _judge(name, subject, held, decisive, t, k, window, template, said)
            if g is not None and g.kind == "missing" and any(
                    _holds(answers[(subject, o)]) or (subject, o) in missing
                    for o in siblings.get(name, set()) if (subject, o) in answers):
                continue  # the task's word is answered (or asked) by another topic it names: ask once
            if g is not None and g.kind == "missing":
                missing.add((subject, name))
            if g is not None:
                out.append(g)
    return out


def expiries(tenant: str, facts: list[str]) -> Plan[dict[str, datetime]]:
    """When each of ``facts`` (uids) expires, for those that do (``recall/expiry``, one round trip)."""
    if not facts:
        return {}
    rows = yield from run_query("recall/expiry", tenant, uids=sorted(set(facts)))
    return {r["uid"]: at for r in rows if (at := to_datetime(r["expires_at"])) is not None}


def _holds(a: Any) -> bool:
    return bool(a.conflict or a.value is not None or a.values)


def gap_leg(tenant: str, now: datetime, task: str, terms: Any, subjects: list[str], t: datetime, k: datetime,
             valid_at: Any, env: str | None, session: str | None, window: timedelta,
             items: list[Any], held: bool = True, asked: str | None = None) -> Plan[list[Any]]:
    """Gaps at the time the task is about; items of competing scopes are flagged and ranked level."""
    from .episodic import task_range
    from .memory_context import ItemWarning
    when = t
    if valid_at is None:
        named = task_range(task, t)
        when = named[0] if named is not None and named[1] - named[0] <= timedelta(days=1) else t
    gaps = yield from find_gaps(tenant, now, task.lower(), terms.topics, subjects, when, k, env, session, window,
                                on_timeline=held, task=task, asked=asked)
    for g in gaps:  # a conflict or an expiry already carries its own warning
        for i in (_options(items, g) if g.kind == "competing" else []):
            i.warnings.append(ItemWarning(kind="gap", message=f"an option for the {g.need}: ask which applies"))
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
