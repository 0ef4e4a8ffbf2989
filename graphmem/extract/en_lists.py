"""Where an English list of things ends: "allergic to kiwi, weirdly" is one item and a remark.

A many-valued topic's pattern captures a comma-separated run ("allergic to soy, eggs and
peanuts"); people go on after a comma with a remark or a new clause ("allergic to soy, so tofu
is out, sorry chef"). A piece that reads as a clause or a remark ends the list; a piece that is a
thing keeps it going, without the adverbs people put in front ("and now apparently tree nuts").
No parser here: the matching layer splits values before the gates see the sentence.
"""

from __future__ import annotations

import re

__all__ = ["list_item", "thing_beside"]

# A pronoun or determiner first: a clause or a phrase about something else, not an item.
_CLAUSE_START = re.compile(r"(?:the|my|it|they|he|she|we|i|you|this|that|which|who|so|but|because|though|"
                           r"sorry|thanks|thank|lol|haha|pls|please|just|only|except|not|no|nope|yes|yeah|oh|ah|argh|ugh|ok|okay|"
                           r"well|hmm|wait|oops|actually)\b", re.I)
# A verb form inside the piece: "tofu is out", "walnuts are fine".
_VERB = re.compile(r"\b(?:is|are|was|were|am|be|been|being|has|have|had|do|does|did|can|can't|won't|"
                   r"get|gets|got|makes?|made)\b|'s\b|n't\b", re.I)
# A remark adverb ("weirdly", "apparently", "honestly"): -ly words of more than four letters.
_ADVERB = re.compile(r"^[a-z]{2,}(?:ally|ily|ely|tly|dly|sly|rly|ously|ibly|ably|ntly)$", re.I)
_LEADING = re.compile(r"^(?:(?:now|also|even|then|plus|apparently|probably|possibly|definitely|maybe|"
                      r"[a-z]{2,}(?:ally|ily|tly|dly|sly|ously))\s+)+", re.I)

# A quantifier is no thing ("allergic to nothing / anything"), nor is a verb's -ing with its object
# ("eating everything", "working on it").
_NO_THING = re.compile(r"^(?:(?:nothing|none|anything|everything|nobody|no one|nada)\b|[a-z]{2,}ing\s+(?:everything|"
                       r"anything|nothing|all|out|on|in|at|from|with|for)\b)", re.I)


def list_item(item: str) -> str | None:
    """The thing a list piece names, or None when the piece ends the list (a clause, a remark)."""
    item = _LEADING.sub("", item)
    if not item or len(item.split()) > 3 or _CLAUSE_START.match(item) or _VERB.search(item):
        return None
    if len(item.split()) == 1 and _ADVERB.match(item):
        return None
    if _NO_THING.match(item):  # "allergic to nothing, eating everything": no thing, and the list is over
        return None
    return item


def thing_beside(sentence: str, cue: int, end: int) -> list[str]:
    """A lower-case thing named right beside a rejected held value, as a correction names it:
    "sorry, pecans, not walnuts" (before the "not" at ``cue``), "not walnuts but pecans" (after the
    rejected value, which ends at ``end``). Names with capitals are the caller's; a remark ("oh no,
    not walnuts") is no thing."""
    out = []
    before = re.search(r"(?:^|[,;:!]\s*)([a-z][a-z -]{0,30}?),?\s*$", sentence[:cue])
    if before:
        out.append(before.group(1).strip())
    after = re.match(r",?\s*(?:but|it's|it is)\s+([a-z][a-z-]*(?:\s[a-z-]+)?)(?=[\s.,;!?]|$)", sentence[end:])
    if after:
        out.append(after.group(1))
    return [t for t in (list_item(x) for x in out) if t]
