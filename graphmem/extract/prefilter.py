"""Could a turn draw a fact at all? The cheap test on raw text that decides whether it is parsed.

Parsing is most of an import's CPU, and most chat turns draw nothing; a turn no rule could fire
on is not parsed. The test must never say no to a turn that a rule would draw from (precision of
the skip: tests/unit/test_prefilter.py runs the extractor with and without it over every labelled
set and asserts the same events), so it is built from the rules' own cue constants, not from a
list of its own: :data:`FACT_CUES` names them, and a new rule family adds its cue constant there
(docs/extraction.md, "The prefilter").

The plain cue patterns are searched as one compiled alternation (each keeps its own flags as a
scoped group), so the test costs one scan of the text instead of one per cue; the vocabulary's
patterns (already one alternation, :meth:`~.base.BaseExtractor._any_pattern`) and a quoted
document (:func:`~.quotes.find_quote`, which needs more than a pattern) follow only when no cue
matched. Episodes have their own test (:func:`~.episodes.may_episode`).
"""

from __future__ import annotations

import re
from typing import Callable

from . import episodes
from .base import CANCEL, CORRECTION, EPOCH, OPEN_CUE_EN, OPEN_CUE_ZH, REVOKE_STRONG, REVOKE_VERB
from .quotes import find_quote
from .zh_corrections import SWAP_CUE_ZH
from .zh_endings import ENDING_CUE_ZH

__all__ = ["ACTUALLY", "CONTRAST", "FACT_CUES", "SUBJECTLESS_EN", "cue_pattern", "may_draw", "may_episode"]

ACTUALLY = re.compile(r"\bactually\b", re.I)  # "Actually I eat fish now": a correction without a cue word
# "port 9000, not 8000", "in Suzhou rather than Hangzhou": a value set against another
CONTRAST = re.compile(r"\b(?:not|instead of|rather than)\s+(?:on\s+|the\s+|in\s+)?(?:[A-Z]|\d)|不是\s*\d")

# The cue constants of the rule families, per language: any match means the turn is parsed.
FACT_CUES: dict[str, tuple[re.Pattern[str], ...]] = {
    "en": (CANCEL, REVOKE_STRONG, REVOKE_VERB, CORRECTION, ACTUALLY, CONTRAST, OPEN_CUE_EN, SWAP_CUE_ZH),
    "zh": (CANCEL, REVOKE_STRONG, REVOKE_VERB, CORRECTION, ACTUALLY, CONTRAST, OPEN_CUE_ZH, ENDING_CUE_ZH, SWAP_CUE_ZH),
}

# A clause told without its subject, the speaker's own ("left Google on the 5th of May", "…, moved
# over from pwc in june"): a verb form of an episode at the start of a sentence or a comma'd clause.
# Not after "and" / "then" / "but": such a clause follows one with its subject, which passes already
# (adding them passed 95 more of 2,760 LoCoMo dev turns and drew no further event there or in the
# labelled sets).
SUBJECTLESS_EN = re.compile(r"(?:^|[.!?,;:]\s*)(?:(?:just|finally|also|recently)\s+)?(?:"
                            + episodes.EN_CUE_ACT.pattern + ")", re.I)

_SENTENCE_START = re.compile(r"(^|[.!?:\n]\s*)([A-Z])")
_cache: dict[str, re.Pattern[str]] = {}


def _scoped(p: re.Pattern[str]) -> str:
    """``p`` as a group carrying its own case flag (named groups dropped: they would repeat)."""
    body = re.sub(r"\(\?P<\w+>", "(?:", p.pattern)
    return f"(?i:{body})" if p.flags & re.I else f"(?-i:{body})"


def cue_pattern(lang: str) -> re.Pattern[str]:
    """The language's :data:`FACT_CUES` as one compiled pattern (built once)."""
    if lang not in _cache:
        _cache[lang] = re.compile("|".join(_scoped(p) for p in FACT_CUES[lang]))
    return _cache[lang]


def may_draw(text: str, lang: str, vocabulary: "re.Pattern[str] | None",
             each_pattern: Callable[[str], bool]) -> bool:
    """Whether any fact rule could fire on ``text``. ``vocabulary`` is the vocabulary's patterns
    as one alternation, or None when they do not combine (``each_pattern`` then searches them one
    by one). English is searched as written and with sentence-initial capitals lowered, as the
    vocabulary rules read it."""
    if cue_pattern(lang).search(text) or find_quote(text, lang, EPOCH):
        return True
    variants = [text]
    if lang == "en":
        lowered = _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).lower(), text)
        if lowered != text:
            variants.append(lowered)
    if vocabulary is not None:
        return any(vocabulary.search(v) for v in variants)
    return any(each_pattern(v) for v in variants)


def may_episode(text: str, lang: str) -> bool:
    """Whether an episode rule could fire on ``text``: the episode module's own test
    (:func:`~.episodes.may_episode`: a first-person word with a time or a verb form), or a clause
    told without its subject (:data:`SUBJECTLESS_EN`), which the episode rules read as the speaker's."""
    return episodes.may_episode(text, lang) or (lang == "en" and SUBJECTLESS_EN.search(text) is not None)
