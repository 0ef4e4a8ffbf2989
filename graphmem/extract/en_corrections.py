"""English corrections that :mod:`.corrections` reads beyond "X, not Y" right beside each other.

* A cleft: "It's amoxicillin I react to, not penicillin", "It was Globex that hired me, not
  Initech" — the value after "it's / it was" at the head of the sentence is the new one, the held
  value after "not" the old one (:func:`cleft_value`).
* A held value with a number, corrected by its number: "Jagtvej 27 not 72" while the store holds
  "Jagtvej 72" — the number right before "not" replaces the held one (:func:`renumbered`).
* "Small correction to my previous email: …": the speaker's own earlier message is what is
  corrected, not an old document to quote (:func:`corrects_own_message`).

Each reads the words of one sentence and what the speaker holds; nothing is drawn unless exactly
one new value is found.
"""

from __future__ import annotations

import re

__all__ = ["cleft_value", "corrects_own_message", "negated_in_clause", "renumbered"]

# "it's X", "it is X", "it was X" at the head of the sentence, after at most a short lead-in
# ("sorry,", "wait:", "ugh, actually").
_CLEFT = re.compile(r"^\W*(?:[A-Za-z]+[,:!]?\s+){0,3}?(?i:it(?:'s|’s|\s+is|\s+was))\s+(?:(?:actually|really|just|only)\s+)?"
                    r"(?P<x>[A-Za-z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*)"
                    r"(?P<rest>(?:\s+(?i:i|we|that|which|who|he|she|they|my)\b[^,;]*)?)\s*,?\s*$")
_NOT_NEW = {"not", "me", "my", "that", "this", "the", "a", "an", "just", "only", "fine", "ok", "okay", "true",
            "what", "because", "so", "too", "also", "still", "now", "about", "like"}


def cleft_value(sentence: str, cue: int) -> str | None:
    """The new value of a cleft correction whose "not" starts at ``cue``: the one word (or
    capitalised name) after "it's" at the head of the sentence, followed by nothing or a
    relative clause ("I react to", "that hired me") up to the comma before "not"."""
    m = _CLEFT.match(sentence[:cue])
    if m is None:
        return None
    x = m.group("x")
    return None if x.lower() in _NOT_NEW else x


def renumbered(sentence: str, held: str) -> str | None:
    """``held`` with its number replaced, when the sentence says "<number> not <held number>"
    ("Jagtvej 27 not 72", "flat 12, not 21"): the new number right before the "not", as many
    digits as the old one; the rest of the held value is kept."""
    m = re.search(r"(?<![\w.])(?P<new>\d{1,5}),?\s+(?:not|rather than|instead of)\s+(?P<old>\d{1,5})(?![\w.])",
                  sentence, re.I)
    if m is None or len(m.group("new")) != len(m.group("old")) or m.group("new") == m.group("old"):
        return None
    at = rf"(?<![\w.]){m.group('old')}(?![\w.])"
    if len(re.findall(at, held)) != 1:
        return None
    return re.sub(at, m.group("new"), held, count=1)


_OWN_MESSAGE = re.compile(r"\b(?:correction|correcting|typo|mistake|error|correct)\b[^.?!]{0,30}?\b(?:to|in|on)\s+"
                          r"my\s+(?:previous|last|earlier)\s+(?:e-?mail|mail|message|msg|note|post|text)\b", re.I)


def corrects_own_message(sentence: str) -> bool:
    """"Small correction to my previous email: I work for Sanofi, not Servier": the earlier
    message is the speaker's own, so the sentence is no talk of an old document."""
    return _OWN_MESSAGE.search(sentence) is not None


_CLAUSE_CUT = re.compile(r"[,;:(]|\b(?:but|and|so|though|although|while)\b", re.I)
_NEGATION = re.compile(r"\b(?:not|never|no longer)\b|n't\b", re.I)


def negated_in_clause(sentence: str, start: int) -> bool:
    """Is the value at ``start`` negated within its own clause, by a "not" / "n't" / "never" before
    it? "I'm not vegetarian, but I'm allergic to nuts" → vegetarian yes, nuts no; "my desk is C14
    not C41" → C14 no (its "not" rejects the value after it, which makes the sentence a correction)."""
    cuts = [m.end() for m in _CLAUSE_CUT.finditer(sentence, 0, start)]
    return _NEGATION.search(sentence, cuts[-1] if cuts else 0, start) is not None
