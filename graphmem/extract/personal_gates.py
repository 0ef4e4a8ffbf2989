"""Gates on the personal facts :mod:`.personal` finds, for what real chat says around them (issue
#43, LoCoMo): a value that is no value, a relative who has died, a compound cut short.

* :func:`generic_value` — "my team" → ``team = team``: a group noun alone names nothing the
  speaker has (a sports team, a work team, a team they cheer for), so its value must say which;
  a bare generic word ("other pets", "stuff") is no value either;
* :func:`a_past_relation` — "my late grandma", "my grandma passed away last year", "since I lost
  my dad": a relation to someone who has died is not a current fact;
* :func:`whole_compound` — "I'm into wine tasting" must not keep "wine": the value's span runs to
  the head noun its last word modifies.

Each reads spaCy's parse of the sentence; each only narrows or completes what personal.py drew.
"""

from __future__ import annotations

import re
from typing import Any

from .openvocab import OpenFound

__all__ = ["generic_value", "a_past_relation", "whole_compound", "personal_kept"]

# Group nouns whose bare word says nothing of which one ("my team", "our crew").
_GROUP_TOPICS = {"team", "band", "group", "club", "crew", "squad"}
# Words that are no value on their own, or only with "other" / "some" in front.
_GENERIC = {"stuff", "things", "thing", "one", "ones", "other", "others", "some", "all", "everyone", "everything"}
# Topics that hold a person the speaker is related to (personal.py's family topics).
_PERSON_TOPICS = {"husband", "wife", "boyfriend", "girlfriend", "fiance", "children", "son", "daughter", "mother",
                  "father", "parents", "brother", "sister", "siblings", "grandmother", "grandfather",
                  "grandchildren", "stepfather", "stepmother", "dog", "cat", "turtle", "bird", "hamster", "rabbit",
                  "guinea_pig", "horse", "snake", "lizard", "fish", "pets"}
_DEAD_MODS = {"late", "deceased", "departed", "dead", "former", "ex", "beloved"}
_DEATH_VERBS = {"died", "passed", "passing", "lost", "losing", "buried", "mourning", "mourned", "grieving"}
_DEATH_WORDS = re.compile(r"\b(?:passed away|passed on|passing|died|death|funeral|memorial|rest in peace|RIP|"
                          r"in (?:loving )?memory of|grave|since (?:she|he) (?:left|went|was gone)|no longer with us)\b",
                          re.I)


def _tokens(sent: Any, found: OpenFound) -> list[Any]:
    a, b = found.span
    return [t for t in sent if a <= t.idx < b]


def _noun_of(sent: Any, found: OpenFound) -> Any:
    """The noun the fact stands on: the value's head, else the topic's noun just before a name."""
    toks = _tokens(sent, found)
    if not toks:
        return None
    head = next((t for t in toks if t.head.i == t.i or not (found.span[0] <= t.head.idx < found.span[1])), toks[-1])
    return head


def generic_value(found: OpenFound) -> bool:
    """``team = team``, ``pets = other pets``: the value is only the topic's own group noun, or only
    generic words."""
    words = [w.lower().strip(".,!?") for w in found.value.split()]
    if found.topic in _GROUP_TOPICS and all(w in (found.topic, found.topic + "s", "my", "our", "own", "the")
                                            for w in words):
        return True
    return bool(words) and words[0] in _GENERIC and len(words) <= 2


def a_past_relation(sent: Any, found: OpenFound) -> bool:
    """"my late grandma", "my grandma passed away", "I lost my dad last year", "the funeral of my
    grandpa", "she was my grandma": a relative (or pet) who has died."""
    if found.topic not in _PERSON_TOPICS:
        return False
    noun = _noun_of(sent, found)
    if noun is None:
        return False
    near = [noun, *noun.children, *[t for c in noun.children if c.dep_ == "appos" for t in c.children]]
    if any(t.lower_ in _DEAD_MODS and t.dep_ in ("amod", "compound", "advmod") for t in near):
        return True
    if noun.head.lower_ in _DEATH_VERBS and noun.dep_ in ("nsubj", "dobj", "nsubjpass", "pobj"):
        return True  # "my grandma passed away", "I lost my dad"
    if noun.dep_ == "attr" and noun.head.lower_ in ("was", "were"):
        return True  # "She was my grandma, the kindest person I knew": told in the past
    return _DEATH_WORDS.search(sent.text) is not None


def whole_compound(sent: Any, found: OpenFound) -> OpenFound:
    """The fact with its value run on to the noun its last word modifies: "wine" → "wine
    tasting" when the parse says "wine" is a compound of "tasting"."""
    toks = _tokens(sent, found)
    if not toks:
        return found
    last, b = toks[-1], found.span[1]
    doc = sent.doc
    while last.dep_ in ("compound", "amod") and last.i < last.head.i < sent.end \
            and last.head.pos_ in ("NOUN", "PROPN") \
            and all(doc[j].dep_ in ("compound", "amod") for j in range(last.i + 1, last.head.i)):
        last = last.head
        b = last.idx + len(last.text)
    if b == found.span[1]:
        return found
    a = found.span[0]
    return OpenFound(found.topic, sent.doc.text[a:b], (a, b), found.declared, gated=found.gated)


def personal_kept(sent: Any, found: list[OpenFound]) -> list[OpenFound]:
    """The facts of one sentence that pass the gates above, each with its whole compound."""
    out = []
    for f in found:
        if generic_value(f) or a_past_relation(sent, f):
            continue
        out.append(whole_compound(sent, f))
    return out
