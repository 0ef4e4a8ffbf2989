"""What an episode says was done: the words of the sentence that name the deed ("went fishing at
the reservoir", "adopted a puppy"), and where it was when they name a place.

The what is a contiguous run of the sentence's own text from the verb through its objects, cut
before another clause, a date, a dangling preposition or punctuation — never a paraphrase, so
the evidence span points at exactly what is stored. Also the one episode kind told without a
deed verb: being at a named place (:func:`was_at`).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from .dates import midnight
from .episode_clauses import garbled, stranded
from .episode_record import Episode
from .episode_words import EMPTY_NOUNS, EVENT_VERBS, GO_FORMS, LIFE_EVENTS, NOT_ACTS, PRONOUN_OBJ

__all__ = ["what_of", "was_at"]


def _run(sent: Any, verb: Any, objs: list[Any], tspan: tuple[int, int] | None) -> list[Any]:
    """The contiguous tokens from the verb through its objects (no date words), trimmed at
    another clause or punctuation and of what cannot end a phrase; cut before the sentence's
    time expression at ``tspan`` (sentence offsets) when the parse put it inside."""
    keep = [verb] + [t for c in objs for t in c.subtree]
    # a date word inside a noun phrase stays ("a weekend yoga class", "my summer job"): it names the thing
    dates = [t for t in keep if t.ent_type_ in ("DATE", "TIME") and not (
        t.dep_ in ("compound", "nmod", "det", "amod") and t.head.pos_ == "NOUN" and t.head.ent_type_ == "" and t.head.i > t.i)]
    keep = sorted({t.i: t for t in keep if t not in dates}.values(), key=lambda t: t.i)
    run = [keep[0]]
    for t in keep[1:]:
        gap = sent.doc[run[-1].i + 1:t.i]
        if len(gap) == 1 and gap[0].text in ('"', "“") and gap[0].head.i == verb.i:
            run.append(gap[0])  # 'watched "The Two Towers"': the opening quote hangs on the verb
        elif t.i != run[-1].i + 1:
            break
        run.append(t)
    cut = next((k for k, t in enumerate(run) if (t.dep_ == "cc" and t.head.pos_ in ("VERB", "AUX")) or (
        t.tag_ in ("WRB", "WP", "WDT") and t.head.dep_ == "relcl" and k > 1) or (
            t.dep_ == "mark" and k > 0 and t.head.dep_ == "advcl" and (t.head.head.i == verb.i or t.head.head in objs))
        or (t.is_punct and (t.text not in "-–/'\"“”" or run[k - 1].whitespace_ and t.text in "-–/'"))), len(run))
    run = run[:cut]
    while run and ((run[-1].dep_ in ("prep", "cc", "det", "poss", "aux", "mark") and not stranded(run[-1], verb))
                   or run[-1].is_punct):
        run.pop()
    while len(run) > 1 and (run[-1].dep_ in ("acl", "advmod", "npadvmod") and not any(
            c.i > run[-1].i for c in run[-1].children) or (run[-1].tag_ in ("TO", "IN", "WDT", "WRB")
                                                          and not stranded(run[-1], verb))
            or (run[-1].tag_ == "VB" and run[-2].tag_ == "TO")
            or (len(run) > 2 and run[-1].dep_ == "pobj" and run[-1].lower_ in PRONOUN_OBJ
                and run[-2].dep_ == "prep" and run[-2].head.i == verb.i)):
        run.pop()  # "… called", "… now", "… to", "… to try", "… about it"
    if tspan is not None:
        inside = next((k for k, t in enumerate(run) if tspan[0] <= t.idx - sent.start_char < tspan[1]), None)
        if inside is not None:  # "went fishing at the reservoir two weekends ago" (parsed as "at … weekends")
            run = run[:inside]
            while run and (run[-1].dep_ in ("prep", "cc", "det", "poss", "nummod", "amod") or run[-1].is_punct):
                run.pop()
    return run


def _says_what(run: list[Any], verb: Any, objs: list[Any]) -> bool:
    """Does the run name something done? Not "working on one" (on what?), not garbled, and a
    noun after the verb ("I went there", "we spent our time" say nothing) unless "went biking"."""
    heads = {verb.i} | {c.i for c in objs if c.pos_ == "VERB"}
    if any((t.dep_ == "pobj" or (t.dep_ == "dobj" and t.head.i in heads)) and t.lower_ in PRONOUN_OBJ
           and not (t.lower_ == "one" and any(c.dep_ == "prep" and c.lower_ == "of" for c in t.children))
           for t in run):  # "for one of the ladies" names who
        return False
    if garbled(run, verb):
        return False
    if _passive_event(verb) or (verb.lower_ in EVENT_VERBS and verb.tag_ == "VBD" and not any(
            c.dep_ == "prt" for c in verb.children)):
        return True  # "got married", "graduated": the verb says it
    go_doing = verb.lower_ in GO_FORMS | {"started", "began", "begun", "start"} and len(run) >= 2 \
        and run[1].tag_ == "VBG" and run[1].dep_ in ("xcomp", "advcl", "dobj") and run[1].lower_ not in NOT_ACTS
    return verb.dep_ == "relcl" or go_doing or (len(run) >= 2 and any(
        t.pos_ in ("NOUN", "PROPN") and t.lower_ not in PRONOUN_OBJ and t.lower_ not in EMPTY_NOUNS for t in run[1:]))


def _passive_event(verb: Any) -> Any:
    """The "got / was" right before a life-event participle ("got promoted"), or None."""
    aux = verb.doc[verb.i - 1] if verb.i > verb.sent.start else None
    return aux if aux is not None and aux.dep_ == "auxpass" and aux.head.i == verb.i \
        and verb.lower_ in LIFE_EVENTS else None


def what_of(sent: Any, verb: Any, objs: list[Any], tspan: tuple[int, int] | None
            ) -> tuple[str, str | None, int, int] | None:
    """(what, where, a, b) for the deed ``verb`` tells — ``a:b`` the what's characters in the
    document — or None when its words name nothing one could store."""
    run = _run(sent, verb, objs, tspan)
    if not run or not _says_what(run, verb, objs):
        return None
    a, b = run[0].idx, run[-1].idx + len(run[-1].text)
    aux = _passive_event(verb)
    if aux is not None and run[0].i == verb.i:
        a = aux.idx  # "got promoted at work"
    while b > a and not sent.doc.text[b - 1].isalnum():
        b -= 1  # "for the first time-"
    if verb.dep_ == "relcl":  # "this pride parade I went to": the noun, the clause
        tail = [verb] + [t for c in objs if c.dep_ in ("prt", "prep") and not list(c.children) for t in [c]]
        a, b = verb.head.left_edge.idx, max(t.idx + len(t.text) for t in tail)
        if verb.head.left_edge.i < sent.start or verb.head.lower_ in PRONOUN_OBJ:
            return None
    what = sent.doc.text[a:b]
    if what.count('"') % 2 and '"' in sent.doc.text[b:b + 2]:
        what += '"'  # a quoted name keeps its closing quote ('… called "Finding Freedom."')
    place = next((e.text for e in sent.ents if e.label_ in ("GPE", "LOC", "FAC") and a <= e.start_char < b), None)
    return what, place, a, b


def was_at(sent: Any, at: datetime, speaker: str, when: tuple[datetime, datetime] | None) -> list[Episode]:
    """"I was in Chicago last week", "we were at the Grand Canyon": the speaker was at a named place
    (a place entity), told in the simple past."""
    out = []
    for be in sent:
        if be.lower_ not in ("was", "were") or be.tag_ != "VBD" or not (
                be.dep_ == "ROOT" or (be.dep_ in ("ccomp", "parataxis") and be.head.i > be.i and be.head.lower_ in (
                    "was", "is", "'s"))):  # "I was in Chicago, it was awesome!"
            continue
        if not any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in be.children) or any(
                c.dep_ in ("neg", "aux", "acomp", "attr") for c in be.children):
            continue
        prep = next((c for c in be.children if c.dep_ == "prep" and c.lower_ in ("in", "at") and c.i == be.i + 1), None)
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None) if prep is not None else None
        if obj is None or obj.ent_type_ not in ("GPE", "LOC", "FAC"):
            continue
        ent = next(e for e in sent.ents if e.start <= obj.i < e.end)
        a, b = be.idx, ent.end_char
        what = sent.doc.text[a:b]
        evidence = f"[{a}:{b}] {sent.text.strip()}"
        today = midnight(at)
        verbs = [t for t in sent if t.pos_ == "VERB"]
        if when is not None and not verbs and when[1] <= today + timedelta(days=1):
            out.append(Episode(speaker, what, ent.text, when[0], when[1], evidence))
        else:
            out.append(Episode(speaker, what, ent.text, None, today + timedelta(days=1), evidence))
    return out

