"""Verbs that look like deeds in real chat but tell none: a noun described by a clause, a feeling
or an evaluation, a plan or an intention said as if it were done (issue #43, LoCoMo).

An annotator reading drawn episodes from LoCoMo found three recurring wrong classes; each is a
test on one parsed verb, read with spaCy's dependency labels, tags and words, never a sentence:

* :func:`describes_a_noun` — "Here's the canyon I found", "the recipe I made": the verb sits in a
  relative clause (``relcl`` / ``acl``) on a noun, so the sentence is about the noun (a photo, a
  thing shown), and "found canyon" is not a deed the speaker tells;
* :func:`a_feeling` — "I loved the concert", "I had a blast", "I felt so proud", "experiencing a
  new level of joy": an evaluation or a feeling, not an event the person did (a verb that is the
  event itself, "I went to…", is untouched);
* :func:`an_intention` — "I'm planning a trip", "thinking about a move", "prepping for the show":
  what is intended is not done; a dated plan goes through the plan path (``planned``) instead.
  ("I planned a surprise party" stays: the planning is done.)

A test that cannot decide says no (keeps the verb): these only take episodes away.
"""

from __future__ import annotations

from typing import Any

__all__ = ["describes_a_noun", "a_feeling", "an_intention", "not_a_told_deed"]

# Verbs whose only content is the speaker's feeling or judgement (by form: no lemmatizer runs).
_FEELING_VERBS = {"love", "loved", "loving", "enjoy", "enjoyed", "enjoying", "like", "liked", "liking", "adore",
                  "adored", "hate", "hated", "feel", "felt", "feeling", "appreciate", "appreciated", "miss", "missed",
                  "experience", "experienced", "experiencing", "cherish", "cherished", "treasure", "treasured",
                  "savor", "savored", "savour", "savoured", "relish", "relished", "admire", "admired", "regret",
                  "regretted", "realize", "realized", "realise", "realised", "reflect", "reflected", "reflecting"}
# Objects that name a feeling, a mood or a judgement: "had a blast", "got my clarity", "saw the impact".
_FEELING_NOUNS = {"blast", "fun", "joy", "clarity", "peace", "impact", "feeling", "feelings", "sense", "vibe", "vibes",
                  "emotion", "emotions", "happiness", "pride", "gratitude", "relief", "love", "excitement", "mood",
                  "moment", "moments", "level", "rush", "thrill", "closure", "courage", "confidence", "motivation",
                  "inspiration", "strength", "comfort", "hope", "purpose", "satisfaction", "appreciation", "ball",
                  "time", "memories", "memory", "dream", "dreams", "ambition", "ambitions", "passion", "effort",
                  "best", "voice"}
# Verbs that only carry their object to the speaker ("had", "got", "found", "saw", "chasing", "putting in").
_CARRIERS = {"had", "have", "having", "got", "get", "getting", "gotten", "found", "find", "finding", "saw", "see",
             "seeing", "chasing", "chase", "chased", "putting", "put", "giving", "gave", "experiencing", "felt",
             "feeling", "reached", "reaching", "gained", "gaining", "making", "made"}
# Verbs (by form) that say something is intended, not done.
_INTENT = {"plan", "plans", "planning", "intend", "intends", "intended", "intending", "consider",
           "considered", "considering", "contemplate", "contemplating", "aim", "aiming", "mean", "meaning",
           "think", "thinking", "thought", "dream", "dreaming", "dreamed", "dreamt", "hope", "hoping", "hoped",
           "want", "wanted", "wanting", "wish", "wished", "wishing", "debating", "deciding", "scheduling",
           "aspire", "aspiring"}
# Getting ready for a thing is not the thing: "prepping for my studio" (but "I prepared dinner" is a deed).
_READYING = {"prepare", "prepares", "preparing", "prepared", "prepping", "prepped", "gearing", "getting"}


def describes_a_noun(verb: Any) -> bool:
    """"the canyon I found", "a painting I did recently", "the help I got from friends": a clause
    that modifies a noun. What it says is background to the noun (often a photo being shown), not
    a deed the sentence tells."""
    if verb.head.pos_ not in ("NOUN", "PROPN", "PRON", "NUM"):
        return False
    # "the chance to interview a chef", "a plan to move": an infinitive on a noun is no description
    # (the clause gates decide it: "had the chance to" says it was done, "a plan to" does not)
    return verb.dep_ == "relcl" or (verb.dep_ == "acl" and not any(c.dep_ == "aux" and c.lower_ == "to"
                                                                   for c in verb.children))


def _objects(verb: Any) -> list[Any]:
    return [c for c in verb.children if c.dep_ in ("dobj", "attr", "oprd")]


def a_feeling(verb: Any) -> bool:
    """"I loved the concert", "felt so proud", "had a blast", "had a great time", "got my clarity",
    "chasing my dream": the verb names a feeling or a judgement, or only carries one (its object is
    a feeling noun). "I went to the concert" is the event, and stays."""
    low = verb.lower_
    if low in _FEELING_VERBS:
        return True
    if low in _CARRIERS:
        return any(o.lower_ in _FEELING_NOUNS for o in _objects(verb))
    return False


def an_intention(verb: Any) -> bool:
    """"I'm planning a trip to Peru", "I'm thinking about a career change", "preparing for the
    exam": the verb says a thing is intended or being got ready for,
    so the thing itself is not done. Dated plans ("I'm going to X next Friday") are told by
    another verb (``going``, ``will``) and are not caught here."""
    return verb.lower_ in _INTENT or (verb.lower_ in _READYING and any(
        c.dep_ == "prep" and c.lower_ == "for" for c in verb.children))


def not_a_told_deed(verb: Any) -> bool:
    """A noun's clause or a feeling: the verb tells no deed of the speaker's, whatever the time.
    (An intention is decided after the time: a dated plan is kept as a plan.)"""
    return describes_a_noun(verb) or a_feeling(verb)
