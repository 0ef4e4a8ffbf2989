"""Tests on one parsed verb for the episode rules: is it a deed the speaker did (or plans), in
which tense, owned by which verb, and does a time expression belong to it?

Each function reads spaCy's dependency parse around one verb and answers one question, so that
:func:`.episodes.episodes_en` reads as the list of its decisions. A test that cannot decide says
no: a missed episode is better than a wrong one an agent trusts.
"""

from __future__ import annotations

from typing import Any

from .episode_words import (EMPTY_NOUNS, EVENT_NOUNS, GATE_HEADS, HABIT, LEAD_ADV, LIFE_EVENTS, NOT_ACTS,
                            NOT_DEED_FORMS, PAST_FORMS, STATIVE, TAKE_FORMS, TELL, THIRD_POSS)

def light_ok(verb: Any, objs: list[Any]) -> bool:
    """A light verb says what only with its object ("got a puppy", not "got better"), or as
    "got back from …", "started going to …"."""
    if any(c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN") and c.lower_ not in ("chance", "opportunity", "time",
                                                                                "feeling", "idea", "sense", "way")
           for c in objs):
        return True
    if verb.lower_ in ("got", "came") and any(c.dep_ == "prt" and c.lower_ == "back" for c in objs) \
            and any(c.dep_ == "prep" and c.lower_ == "from" for c in objs):
        return True
    return verb.lower_ in ("started", "began") and any(c.dep_ == "xcomp" and c.tag_ == "VBG" and c.lower_ not in
                                                      NOT_ACTS for c in objs)


def implied_i(sent: Any, verb: Any, tense: str | None) -> bool:
    """A chat sentence that opens with a past verb and no subject ("Just finished a painting",
    "Took a short trip to Rome") is the speaker's."""
    if tense != "past" or verb.tag_ not in ("VBD", "VB") or verb.dep_ != "ROOT":
        return False
    before = [t for t in sent if t.i < verb.i and not t.is_punct]
    if any(c.dep_ in ("dobj", "dative") and c.lower_ in ("me", "us") for c in verb.children):
        return False  # "Reminded me of my mom": something else reminded
    if verb.lower_ in TAKE_FORMS and any(c.dep_ == "dobj" and c.lower_ in EMPTY_NOUNS for c in verb.children):
        return False  # "Took some trial and error but…": it took
    return all(t.lower_ in LEAD_ADV for t in before) and verb.lower_ not in STATIVE


def plan_head(verb: Any) -> Any:
    """The verb that makes ``verb`` a plan — "going" in "I'm going to visit", ``verb`` itself in
    "We'll drive to…" — or None."""
    if verb.tag_ != "VB" or verb.pos_ != "VERB":
        return None
    if verb.dep_ == "xcomp" and verb.head.lower_ in ("going", "gon") and any(
            c.dep_ == "aux" and c.lower_ in ("am", "'m", "are", "'re") for c in verb.head.children):
        return verb.head
    if any(c.dep_ == "aux" and c.lower_ in ("will", "'ll") for c in verb.children):
        return verb
    return None



def clause_ok(verb: Any, modal_ok: bool = False) -> bool:
    """No negation, modal, "if", and no wish / plan / hope / think above the verb ("will" in a
    plan, with ``modal_ok``)."""
    if any(c.dep_ == "neg" or (c.dep_ == "aux" and c.tag_ == "MD" and not (modal_ok and c.lower_ in ("will", "'ll")))
           or (c.dep_ == "mark" and c.lower_ in
           ("if", "unless", "whether", "until", "once")) for c in verb.children):
        return False
    up = verb
    while up.dep_ in ("ccomp", "xcomp", "advcl", "conj", "acl", "relcl", "pcomp") and up.head.i != up.i:
        if up.dep_ == "ccomp" and up.head.lower_ in TELL:
            return True  # "I wanted to tell you I just joined a writers group": told as a fact
        if up.dep_ == "conj" and any(c.dep_ == "nsubj" for c in up.children) and any(
                c.dep_ == "cc" and c.lower_ in ("but", "and", "so", "yet") for c in up.head.children):
            return True  # "I didn't dress up, but I wore my scarf": a clause of its own
        thought = up.dep_ == "ccomp"
        up = up.head
        if up.lower_ in GATE_HEADS or (thought and up.lower_ in NOT_DEED_FORMS and up.tag_ == "VBG") or any(
                c.dep_ == "neg" or (c.dep_ == "aux" and c.tag_ == "MD") or
                (c.dep_ == "mark" and c.lower_ in ("if", "unless", "whether")) for c in up.children):
            return False  # "Knowing I'm helping…": the content of a thought
    return True


def tense_of(verb: Any) -> str | None:
    """'past' (went, have gone, got promoted), 'now' (am going, have been painting), else None."""
    auxes = [c.lower_ for c in verb.children if c.dep_ in ("aux", "auxpass")]
    if verb.tag_ == "VBD" and not auxes:
        return "past"
    if verb.tag_ == "VB" and not auxes and verb.i == verb.sent.start and verb.lower_ in PAST_FORMS:
        return "past"  # "Took a short trip to Rome." (tagged as an imperative; "took" cannot be one)
    if verb.tag_ == "VBN" and any(a in ("have", "'ve", "has", "'s", "had", "'d") for a in auxes) \
            and not any(a in ("been", "be") for a in auxes):
        return "past"
    if verb.tag_ == "VBN" and verb.lower_ in LIFE_EVENTS and auxes in (["got"], ["was"], ["were"], ["get"]) \
            and any(c.dep_ == "auxpass" and c.tag_ == "VBD" for c in verb.children):
        return "past"  # "I got promoted at work", "we were married in June": it happened to the speaker
    if verb.tag_ == "VBG" and any(a in ("am", "'m", "are", "'re", "been") for a in auxes) \
            and not any(a in ("was", "were") for a in auxes):
        return "now"
    return None



_NOT_DONE_OBJ = {"well", "good", "great", "ok", "okay", "fine", "best", "job", "work", "thing", "things", "stuff",
                 "anything", "something", "everything", "nothing", "lot", "bit", "same", "right", "wrong", "part",
                 "research", "alright", "awesome", "amazing", "better", "worse", "much", "more", "what", "it", "that",
                 "this", "fun", "time", "ton", "tons", "bunch", "loads", "deal", "lesson", "lessons", "thing"}


# Gerunds that say nothing alone ("I'm trying", "I'm learning a ton") but an activity with a thing
# for their object: "I'm learning the piano", "trying kundalini yoga", "planning a trip to the coast".
_WITH_A_THING = {"learning", "trying", "planning"}


def doing_what(verb: Any) -> bool:
    """"I'm doing kickboxing", "we've been doing yoga": "doing" with an activity for its object
    (not "doing well", "doing my best", "doing the same"); "learning / trying / planning" with a
    thing ("learning Spanish", "planning a trip"); "looking into" a thing ("looking into
    counseling as a career") — none of them with a clause after them ("trying to…")."""
    if verb.tag_ != "VBG" or any(c.dep_ in ("xcomp", "ccomp") for c in verb.children):
        return False
    low = verb.lower_
    if low == "looking":
        prep = next((c for c in verb.children if c.dep_ == "prep" and c.lower_ == "into" and c.i == verb.i + 1), None)
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None) if prep is not None else None
    elif low == "doing" or low in _WITH_A_THING:
        obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    else:
        return False
    if obj is None or obj.pos_ not in ("NOUN", "PROPN") or obj.lower_ in _NOT_DONE_OBJ or obj.lower_ in EMPTY_NOUNS \
            or any(c.lower_ in ("called", "named", "titled") and not list(c.children) for c in obj.children):
        return False  # "trying a game called.": called what?
    if low == "doing":
        return not any(c.dep_ in ("det", "poss") for c in obj.children)
    return not any(c.dep_ in ("det", "poss") and c.lower_ in ("your", "his", "her", "their", "this", "that", "these",
                                                              "those", "some", "any", "what")
                   for c in obj.children)



def done_by(verb: Any) -> Any:
    """The past verb that says an infinitive or gerund was done — "I got to feed a horse", "we were
    able to raise funds", "I had the chance to see him play" — or None.
    ("decided / wanted / planned to" say nothing of whether it was done.)"""
    if verb.tag_ == "VB" and verb.dep_ == "xcomp" and any(c.dep_ == "aux" and c.tag_ == "TO" for c in verb.children):
        h = verb.head
        if h.lower_ in ("got", "managed") and h.tag_ == "VBD" and not any(c.dep_ == "aux" for c in h.children):
            return h
        if h.lower_ == "able" and h.dep_ == "acomp" and h.head.lower_ in ("was", "were") and not any(
                c.dep_ in ("neg", "aux") for c in h.head.children):
            return h.head
    if verb.tag_ == "VB" and verb.dep_ in ("acl", "relcl") and verb.head.lower_ in ("chance", "opportunity") \
            and verb.head.dep_ == "dobj" and verb.head.head.lower_ == "had" and verb.head.head.tag_ == "VBD":
        return verb.head.head
    return None


def stranded(tok: Any, verb: Any) -> bool:
    """The preposition that ends a relative clause inside the what ("the shelter I volunteer at")."""
    return tok.dep_ == "prep" and tok.head.dep_ == "relcl" and tok.head.i != verb.i and not list(tok.children)


def had_event(verb: Any) -> bool:
    """"I had a picnic with friends", "we had our first call-out": "had" (simple past, said of
    the subject) with an event noun for its object."""
    if verb.lower_ != "had" or verb.tag_ != "VBD" or any(c.dep_ == "aux" or (c.dep_ in ("xcomp", "ccomp") and c.i > verb.i)
                                                         for c in verb.children):
        return False
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if obj is None or obj.tag_ not in ("NN", "NNS"):
        return False
    words = obj.lower_.rstrip("s") if obj.lower_.endswith("s") and obj.lower_[:-1] in EVENT_NOUNS else obj.lower_
    compound = " ".join(t.lower_ for t in obj.lefts if t.dep_ == "compound") + " " + obj.lower_
    return words in EVENT_NOUNS or compound.strip() in EVENT_NOUNS


def habitual(verb: Any) -> bool:
    """"I usually…", "Sometimes I even use it when I'm playing…": a habit adverb on the verb or on
    a clause above it."""
    up = verb
    for _ in range(8):
        if any(c.dep_ == "advmod" and c.lower_ in HABIT for c in up.children):
            return True
        if up.head.i == up.i or up.dep_ == "conj":
            return False  # "I usually play X, but I tried Y this time": the habit is the other clause's
        up = up.head
    return False


def garbled(run: list[Any], verb: Any) -> bool:
    """A what that would read wrong: a preposition left without its object ("working on for a
    while"), a name cut at "called" / "named", someone else's thing ("visited her old house":
    whose?), "each other"."""
    last = run[-1]
    if last.lower_ in ("called", "named", "titled", "entitled"):
        return True
    near = {c.i for c in verb.children if c.dep_ in ("dobj", "dative")} | {
        g.i for c in verb.children if c.dep_ == "prep" for g in c.children if g.dep_ == "pobj"}
    for k, t in enumerate(run[1:], 1):
        if t.dep_ == "prep" and not any(c.dep_ in ("pobj", "pcomp") for c in t.children) and t.head.i in {
                r.i for r in run} and t.i > verb.i and t.i != last.i:
            return True
        if t.dep_ == "poss" and t.lower_ in THIRD_POSS and t.head.i in near:
            return True
        if t.lower_ == "eachother" or (t.lower_ == "other" and run[k - 1].lower_ == "each") or (
                t.lower_ == "another" and run[k - 1].lower_ == "one"):
            return True
    return False


def _noun_gerund(tok: Any) -> bool:
    """A gerund the parser hung on a noun as a clause, but that names a thing ("a poetry reading")."""
    return tok.tag_ == "VBG" and tok.dep_ == "acl" and tok.head.pos_ == "NOUN" and tok.head.i == tok.i - 1 \
        and not any(c.dep_ in ("dobj", "nsubj", "prep") for c in tok.children)


def attached(sent: Any, verb: Any, span: tuple[int, int]) -> bool:
    """Does the time expression belong to this verb (not to another clause: "I emailed them and
    one said yes today")?"""
    toks = [t for t in sent if span[0] <= t.idx < span[1]]
    if not toks:
        return False
    owners = {verb.i, verb.head.i} if verb.dep_ == "conj" else {verb.i}
    if verb.dep_ == "advcl" and verb.tag_ == "VBD" and any(c.dep_ in ("mark", "advmod") and c.lower_ in ("when", "as")
                                                          for c in verb.children):
        owners.add(verb.head.i)  # "I was nervous last week when I shared my book": the when-clause's time
    owners |= {c.i for c in verb.children if c.dep_ in ("xcomp", "advcl") and c.tag_ == "VBG" and c.i > verb.i
               and not any(g.dep_ == "mark" for g in c.children)}  # "went fishing … last weekend"
    owners |= {c.i for c in verb.children if c.dep_ == "advcl" and c.i < verb.i and not any(
        g.dep_ == "mark" and g.lower_ in ("if", "unless", "until", "before", "once") for g in c.children)}
    # "While volunteering yesterday, I met…"
    if verb.dep_ in ("ccomp", "parataxis", "conj") and verb.head.lower_ in ("was", "were", "happened") and not any(
            c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in ("i", "we") for c in verb.head.children):
        owners.add(verb.head.i)  # "Last week was wild - I volunteered at…", "something happened yesterday - I…"
    owners |= {c.i for c in verb.children if c.dep_ in ("ccomp", "parataxis") and c.i < verb.i and c.lower_ in (
        "was", "were", "happened") and not any(g.dep_ == "nsubj" and g.lower_ in ("i", "we") for g in c.children)}
    for t in toks:
        up = t.head
        while up.i != up.head.i and (up.pos_ not in ("VERB", "AUX") or _noun_gerund(up)):
            up = up.head  # "a poetry reading last Fri": the gerund names a thing, the time is the going's
        if up.i in owners:
            return True
    return False

