"""Episodes: first-person activities with a time ("I went to a support group yesterday",
"I painted a sunset last week", "上周六我们去爬了黄山").

An :class:`Episode` says who did what, where and when — the time resolved against the message
(a day, or a range when the text is vague: "last week" is that Monday to the next).
:meth:`RuleExtractor.draw` (what the store's ingest uses) adds one ``episode`` event per episode
after the facts :meth:`RuleExtractor.extract` draws; the store keeps them as ``:Episode`` records.
The same gates as for facts apply: no questions, no "you…", no one else's activity, nothing
hypothetical or negated.

This module is the sequence of decisions for one sentence; each step lives with its concept:
:mod:`.episode_words` (the word lists), :mod:`.episode_clauses` (tests on one parsed verb),
:mod:`.episode_what` (the words that say what was done, and being at a place),
:mod:`.episode_time` (when), :mod:`.episode_record` (the record and its ledger event).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Callable

from .dates import find_dates, midnight
from .episode_clauses import (attached, clause_ok, doing_what, done_by, habitual, had_event, implied_i, light_ok,
                              plan_head, tense_of)
from .episode_feelings import an_intention, not_a_told_deed
from .episode_record import Episode, episode_event
from .episode_time import IDIOM, ZH_TIME, ahead_of, month_ahead, named_day, time_span, when_told, zh_when
from .episode_what import was_at, what_of
from .episode_words import (ABSENCE, AHEAD_TIME, COPULA_FEEL, FRAME_FORMS, FUTURE, GO_FORMS, HABIT_TIME, IDIOM_ACT,
                            LATELY, LIGHT, MENTAL, MENTAL_FORMS, NOT_ACTS, NOT_DEED_FORMS, PAST_STATE, PRONOUN_OBJ,
                            STATIVE)
from .gates import is_question

__all__ = ["EN_CUE_ACT", "Episode", "episode_event", "episodes_en", "episodes_zh", "may_episode"]


_EN_CUE_WHO = re.compile(r"\b(?:I|[Ww]e)\b")
_EN_CUE_WHEN = re.compile(r"\b(?:yesterday|today|tonight|ago|last|this (?:morning|afternoon|evening|weekend)|other day|"
                          r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|"
                          r"june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|"
                          r"\d{4}-\d{1,2}-\d{1,2})\b", re.I)
_ZH_CUE_WHEN = re.compile(ZH_TIME.pattern + r"|\d{1,2}月\d{1,2}[日号]|昨日|今天")


_EN_CUE_ACT = re.compile(r"\b(?:\w+ed|\w+ing|went|took|got|gotten|made|saw|met|ran|won|bought|began|built|came|did|"
                         r"done|drew|drove|ate|found|flew|gave|grew|heard|held|kept|led|left|lost|paid|put|read|rode|"
                         r"sang|sat|sent|sold|spent|spoke|taught|threw|wrote|caught|brought|chose|fed|fought|hung|"
                         r"quit|slept|swam|wore|begun|seen|taken|written|eaten|given|flown|ridden|won|forgot|forgotten|hit|"
                         r"dug|sang|stole|shot|lit|dealt|bent|built|sent|spent|able|chance|opportunity|set|cut|wore|beat|drank|"
                         r"swung|taught|sold|fell|broke|chose|woke|stood|felt|bent|spun|struck|dove|upset|had)\b", re.I)


EN_CUE_ACT = _EN_CUE_ACT  # the verb forms an English episode is told with (prefilter.py reads them)

_EN_CUE_LEAD = re.compile(r"(?:^|[.!?]\s+)(?:(?:just|finally|also|recently)\s+)?(?:\w+ed|went|took|got|made|saw|met|"
                          r"ran|won|bought|built|found|spent|wrote|finished)\b", re.I)  # "Took a trip to Rome."


def may_episode(text: str, lang: str) -> bool:
    """Could an episode be drawn here? A cheap test on the raw text (a first-person word, and a
    time word or a past or -ing verb form) that spares the parse for turns without one."""
    if lang == "zh":
        return "我" in text and _ZH_CUE_WHEN.search(text) is not None
    return (_EN_CUE_WHO.search(text) is not None and (_EN_CUE_WHEN.search(text) is not None
                                                      or _EN_CUE_ACT.search(text) is not None)) \
        or _EN_CUE_LEAD.search(text) is not None


def narrative_time(sent: Any, at: datetime, carried: tuple[datetime, datetime] | None
                   ) -> tuple[datetime, datetime] | None:
    """The time a story in the past is set in, for the next sentence of the same message: a
    sentence whose main verb is in the simple past and that states a past time ("Last weekend I
    had a picnic with friends.") sets it; a later simple-past sentence without a time of its own
    ("We chilled under the trees.") keeps it; anything else (a present or future sentence, a
    question, a time ahead) ends it."""
    if sent is None or not sent.doc.has_annotation("DEP") or is_question(sent.text, "en"):
        return None
    root = sent.root
    past = root.tag_ == "VBD" and not any(c.dep_ in ("aux", "auxpass") for c in root.children)
    if not past:
        return None
    when = when_told(sent.text, at)
    if when is None:
        # "I wanted to bring that magic home.": what the speaker wanted or thought ends the story
        return None if root.lower_ in NOT_DEED_FORMS else carried
    if when[1] > midnight(at) + timedelta(days=1) or HABIT_TIME.search(sent.text):
        return None  # a time ahead, or a habit
    return when


# -- English: one parsed sentence ------------------------------------------------------------

def _a_sentence_of_none(text: str) -> bool:
    """A sentence that tells no episode at all: a question, "if / maybe …", a past state ("when I
    was a kid"), an idiom ("feels like yesterday"), a habit ("every weekend") or an absence ("it's
    been ages since …")."""
    return is_question(text, "en") or re.match(r"^\s*(?:if|maybe|perhaps)\b", text, re.I) is not None \
        or any(rx.search(text) for rx in (PAST_STATE, IDIOM, HABIT_TIME, ABSENCE))


def _no_deed_word(verb: Any) -> bool:
    """Not a verb, or one that names a state or a thought ("felt", "wanted") — unless "go" in a plan,
    "had" an event or "doing" an activity — or a frame verb without its own object ("we planned to
    play", not "I planned a party")."""
    low = verb.lower_
    return verb.pos_ != "VERB" or (low in NOT_ACTS and not (low == "go" and plan_head(verb))
                                   and not had_event(verb) and not doing_what(verb)) \
        or low in NOT_DEED_FORMS or (low in FRAME_FORMS and (
            any(c.dep_ in ("xcomp", "ccomp") for c in verb.children)
            or not any(c.dep_ == "dobj" for c in verb.children)))


def _a_state(verb: Any) -> bool:
    """"hopeful and inspired about …", "feeling calm and refreshed": a state, not a deed."""
    return verb.dep_ == "conj" and (verb.head.pos_ not in ("VERB", "AUX") or (
        verb.head.lower_ in COPULA_FEEL and not any(c.dep_ in ("nsubj", "dobj") for c in verb.children)))


def _a_frame(verb: Any) -> bool:
    """"whenever I…", "when I'm playing…", "(felt) like I got…": a frame, not an episode."""
    return any(c.dep_ in ("mark", "intj", "prep") and c.lower_ == "like" and c.i < verb.i for c in verb.children) \
        or any(c.dep_ == "mark" and (c.lower_ in ("whenever", "though") or (c.lower_ in ("when", "while") and
                                                                           verb.tag_ == "VBG"))
               for c in verb.children)


def _a_clause_on_a_noun(verb: Any) -> bool:
    """"the last time we saw each other"; "the people we've lost": a clause that describes a noun."""
    return verb.dep_ in ("relcl", "advcl", "acl") and verb.head.lower_ in ("time", "times") or \
        verb.dep_ == "relcl" and (verb.tag_ != "VBD" or any(c.dep_ in ("aux", "auxpass") for c in verb.children))


# The verbs no episode is told by, whatever else the sentence says (checked in this order).
_NOT_TOLD_BY: tuple[Callable[[Any], bool], ...] = (_no_deed_word, _a_state, _a_frame, _a_clause_on_a_noun,
                                                  not_a_told_deed)


def _speaker_subject(sent: Any, verb: Any, owner: Any, tense: str) -> bool:
    """Is the speaker the one who did it? "I / we" (also "Anthony and I"), the subject of a
    coordinated verb, or none at all in a chat sentence that opens with a past verb."""
    subjs = [c for c in owner.children if c.dep_ in ("nsubj", "nsubjpass", "expl")]
    # the subject nearest before the verb ("Nate, after finishing it I got…" parses "Nate" as one
    # too); with "My colleagues and I went…" parsed as two subjects, the speaker is one of them
    subj = next((c for c in subjs if c.lower_ in ("i", "we")), None) if any(
        c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in subjs) else (subjs[0] if subjs else None)
    if subj is None and owner.dep_ == "conj":
        subj = next((c for c in owner.head.children if c.dep_ == "nsubj"), None)
    if subj is None:
        return implied_i(sent, verb, tense)
    return subj.lower_ in ("i", "we") or any(c.dep_ == "conj" and c.lower_ in ("i", "me") for c in subj.children)


def _told_deed(sent: Any, verb: Any) -> tuple[str, Any] | None:
    """(tense, the verb that says it was done) when ``verb`` tells a deed of the speaker's — done
    ('past'), going on ('now') or planned ('plan') — asserted, not wished or habitual; else None."""
    head = plan_head(verb)  # "I'm going to visit …", "We'll drive to …": the verb that says so
    done = done_by(verb) if head is None else None  # "I got to feed a horse": "got" says it was done
    if verb.dep_ not in ("ROOT", "conj", "ccomp", "advcl", "relcl") and head is None and done is None:
        return None
    if verb.dep_ == "relcl" and (verb.head.pos_ != "NOUN" or any(c.dep_ in ("dobj", "pobj") or c.tag_ == "WRB"
                                                                 for c in verb.children)):
        return None  # "a trip I took last summer": the trip is what was taken
    tense = "plan" if head is not None else ("past" if done is not None else tense_of(verb))
    if tense is None:
        return None
    owner = head if head is not None else (done if done is not None else verb)
    if not _speaker_subject(sent, verb, owner, tense):
        return None
    if not clause_ok(owner, modal_ok=tense == "plan") or habitual(verb):
        return None
    return tense, done


def _lately(verb: Any, text: str, tense: str) -> bool:
    """"I've been painting a lot lately": an activity going on for a while, told by the verb alone."""
    return tense == "now" and verb.tag_ == "VBG" and LATELY.search(text) is not None \
        and verb.lower_ not in MENTAL_FORMS and not any(
            c.dep_ in ("dobj", "prep", "xcomp", "ccomp", "prt") and c.lower_ != "lot" and c.i > verb.i
            for c in verb.children) and not FUTURE.search(text)


def _objects(verb: Any) -> list[Any] | None:
    """The verb's words after it that say what was done, or None when they say nothing one can
    keep: a pronoun ("I painted it"), "I've got", "got … going", a thought ("starting to realize"),
    an idiom ("made a difference"), a light verb without its object ("got better")."""
    objs = [c for c in verb.children if c.dep_ in ("dobj", "prt", "prep", "xcomp", "dative", "acomp", "agent") and c.i > verb.i
            or (c.dep_ == "advcl" and c.tag_ == "VBG" and c.i == verb.i + 1 and verb.lower_ in GO_FORMS)]
    if any(c.dep_ == "dobj" and c.lower_ in PRONOUN_OBJ for c in objs):
        return None  # what "it" is lies in another message
    if verb.lower_ in ("got", "gotten") and any(c.dep_ == "aux" for c in verb.children):
        return None  # "I've got a story": have
    if verb.lower_ in ("got", "get", "gotten") and any(g.tag_ == "VBG" and g.dep_ in ("acl", "xcomp", "ccomp")
                                                       for c in [verb, *verb.children] for g in c.children):
        return None  # "I got some offers going on my store": set them going, not received them
    if any(c.dep_ == "xcomp" and (c.lower_ in NOT_ACTS or c.lower_ in STATIVE or c.lower_ in MENTAL)
           for c in verb.children):
        return None  # "I'm starting to realize that …": a thought, not a deed
    if IDIOM_ACT.search(verb.sent.text[verb.idx - verb.sent.start_char:]):
        return None
    if verb.lower_ in LIGHT and verb.dep_ != "relcl" and not light_ok(verb, objs):
        return None
    return objs


def episodes_en(sent: Any, at: datetime, speaker: str,
                carried: tuple[datetime, datetime] | None = None) -> list[Episode]:
    """The episodes of one parsed English sentence. ``carried``: the time of the story the
    previous sentences of the message told (:func:`narrative_time`), for a simple-past verb of
    this sentence that states no time of its own."""
    text = sent.text
    if _a_sentence_of_none(text):
        return []
    when = when_told(text, at)
    tspan = time_span(text, at)
    told = _Told(sent, text, at, midnight(at), speaker, when,
                 (sent.start_char + tspan[0], sent.start_char + tspan[1]) if tspan is not None and when is not None
                 else None, carried)
    out = was_at(sent, at, speaker, when)
    for verb in sent:
        if any(rule(verb) for rule in _NOT_TOLD_BY):
            continue
        deed = _told_deed(sent, verb)
        if deed is None:
            continue
        tense, done = deed
        if _lately(verb, text, tense):
            a, b = verb.idx, verb.idx + len(verb.text)
            out.append(Episode(speaker, verb.text, None, told.today - timedelta(days=30),
                               told.today + timedelta(days=1), f"[{a}:{b}] {text.strip()}"))
            continue
        objs = _objects(verb)
        found = what_of(sent, verb, objs, tspan if when is not None else None) if objs is not None else None
        if found is None:
            continue
        what, place, a, b = found
        timed = _timed(told, verb, done, tense)
        if timed is not None and not (an_intention(verb) and not timed[2]):  # an undated plan is not done
            out.append(Episode(speaker, what, place, timed[0], timed[1], f"[{a}:{b}] {text.strip()}",
                               planned=timed[2]))
    return out


@dataclass(frozen=True)
class _Told:
    """One sentence and what the episode rules resolved once for all its verbs: its time, and
    where the sentence says it (document offsets)."""

    sent: Any
    text: str
    at: datetime
    today: datetime
    speaker: str
    when: tuple[datetime, datetime] | None
    span: tuple[int, int] | None
    carried: tuple[datetime, datetime] | None


def _timed(told: _Told, verb: Any, done: Any, tense: str) -> tuple[datetime | None, datetime, bool] | None:
    """(start, end, planned) of the deed ``verb`` tells, or None when it is no episode after all
    (a plan with no time ahead, a time ahead for a deed told as done)."""
    text, today, day = told.text, told.today, timedelta(days=1)
    if tense == "plan" or (tense == "now" and FUTURE.search(text)):
        # "I'm hiking with some buddies this weekend": a plan, kept only with a time ahead
        ahead = ahead_of(text, told.at)
        return (ahead[0], ahead[1], True) if ahead is not None else None
    if tense == "now" and month_ahead(text, told.at):
        return None  # "I'm running a marathon in September": a plan whose month is ahead
    if tense == "now":
        # "I'm moving to Seattle on March 21", "On April 6 I'm starting at Globex": a progressive whose
        # own time is ahead is a plan for that day, never a deed of today.
        for d in find_dates(text, told.at):
            if d.start >= today + day and attached(told.sent, verb, (told.sent.start_char + d.span[0],
                                                                    told.sent.start_char + d.span[1])):
                return d.start, d.end or (d.start + day), True
    at_when, at_span = told.when, told.span  # this verb's (a weekday told in the past is behind)
    on_day = named_day(text, today) if tense == "past" else None
    if on_day is not None and (told.when is None or told.when[0] >= today + day):
        at_when = on_day[0]
        at_span = (told.sent.start_char + on_day[1][0], told.sent.start_char + on_day[1][1]) if at_when else None
    if at_when is not None and at_span is not None and (attached(told.sent, verb, at_span) or (
            done is not None and attached(told.sent, done, at_span)) or _opens(told, at_span, verb, tense)):
        if at_when[0] >= today + day:
            return None  # a plan, not an episode
        if tense == "now" and at_when[1] <= today:
            # "Last week I talked to a friend and we're figuring out ideas": going on now
            return today, today + day, False
        return at_when[0], at_when[1], False
    return _untimed(told, verb, tense, at_when)


_OPENER = re.compile(r"^\W*(?:(?:so|well|and|but|oh|also|actually|anyway|btw|by the way)\W+)*$", re.I)


def _opens(told: _Told, span: tuple[int, int], verb: Any, tense: str) -> bool:
    """"Yesterday, I tried something new - I gave a talk": a time that opens the sentence sets it for
    every verb of the sentence told in the simple past."""
    before = told.sent.doc.text[told.sent.start_char:span[0]]
    return tense == "past" and verb.tag_ == "VBD" and verb.dep_ in ("ROOT", "conj", "ccomp", "parataxis") \
        and _OPENER.match(before) is not None


def _untimed(told: _Told, verb: Any, tense: str, at_when: tuple[datetime, datetime] | None
             ) -> tuple[datetime | None, datetime, bool] | None:
    """The time of a deed whose sentence names none that belongs to it: the story's, the
    message's day, the last month, or "before the message"."""
    text, today, day = told.text, told.today, timedelta(days=1)
    if at_when is None and told.carried is not None and tense == "past" and verb.tag_ == "VBD" and not any(
            c.dep_ in ("aux", "auxpass") for c in verb.children):
        # "Last weekend I had a picnic. We chilled under the trees.": the story's time
        return told.carried[0], told.carried[1], False
    if tense == "now" and FUTURE.search(told.sent.doc.text):
        return None  # "… this weekend. We're checking out a new trail": the plan of another sentence
    if tense == "now" and LATELY.search(text):
        # "I've been painting a lot lately": going on for a while, up to the message
        return today - timedelta(days=30), today + day, False
    if tense == "now":
        return today, today + day, False
    if tense == "past" and at_when is None and not AHEAD_TIME.search(text):
        # done before the message; the text does not say when
        return None, today + day, False
    return None


_ZH_EPISODE = re.compile(r"(?P<who>我们|我)(?P<what>(?:去|在|到)?[\u4e00-\u9fff]{1,12}?(?:了|过)[\u4e00-\u9fff]{0,10})")


def episodes_zh(sentence: str, offset: int, at: datetime, speaker: str) -> list[Episode]:
    """The episode of one Chinese sentence: no parser offline, so a pattern — 我 / 我们, a verb
    phrase done (了 / 过) and a time word (昨天, 上周六…) — with the same refusals (a question, a
    hypothetical or negation word, someone else before the verb)."""
    if is_question(sentence, "zh") or re.search(r"如果|要是|可能|打算|想|没|不", sentence):
        return []
    t = ZH_TIME.search(sentence)
    if t is None:
        return []
    when = when_told(sentence, at) or zh_when(t.group(0), at)
    m = _ZH_EPISODE.search(sentence)
    if m is None or when is None or re.search(r"你|他|她|老婆|老公|朋友|同事", sentence[:m.start()]):
        return []
    a, b = offset + m.start("what"), offset + m.end("what")
    return [Episode(speaker, m.group("what"), None, when[0], when[1], f"[{a}:{b}] {sentence.strip()}")]

