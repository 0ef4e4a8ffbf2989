"""The tense of the English words around a date that does not settle its own side of today.

"On Monday I moved" means the Monday gone; "On Monday I'm moving" / "I'll move on Monday" the one
ahead. "the 8th" alone is the same: "I started on the 3rd" is the 3rd gone, "starting at X on the
8th" the 8th ahead. :mod:`.dates` asks :func:`tense_near` for a weekday or a day of the month with
no since- or until-word, and goes back or ahead by the answer; with no answer it keeps its own
default (the next weekday, the nearer day of the month).

The cues are grammar, not sentences: a future or plan form (will / 'll / going to / gonna, a
progressive "I'm moving", a scheduled present "starts", "kicks in", "is due"), and a past form (a
past auxiliary, a subject with an -ed verb, or the past of the verbs that tell a change: left,
began, got…). The nearest cue before the date in its sentence wins ("I started on the 3rd, not the
1st": both days gone); failing that, the nearest one after it in its own clause ("On Monday I
moved"). Dates read without a parse, so this reads the words; it never invents a date, only picks
between the two sides of today.
"""

from __future__ import annotations

import re

__all__ = ["tense_near"]

_FUTURE = (r"will|'ll|shall|gonna|going\s+to|about\s+to|due|"
           r"(?:am|'m|are|'re|is|'s|be)\s+(?:\w+ly\s+)?\w+ing|"
           r"starts?|starting|begins?|beginning|kicks?\s+in|moves?|moving|joining|switching|relocating|"
           r"heading|flying|leaving|takes?\s+effect|goes\s+live")
_PAST = (r"was|were|did|had|got|went|left|began|came|quit|moved|started|joined|arrived|signed|finished|"
         r"switched|relocated|resigned|returned|landed|flew|took|"
         r"(?:i|we|he|she|they|you)\s+(?:\w+ly\s+)?\w+ed")
_CUE = re.compile(rf"\b(?:(?P<future>{_FUTURE})|(?P<past>{_PAST}))\b", re.IGNORECASE)
# Where a sentence ends (for the words before the date) and a clause ends (for the words after).
_SENTENCE_END = re.compile(r"[.!?\n]\s")
_CLAUSE_END = re.compile(r"[,;:.!?\n()]|\s[–—-]\s|\b(?:and|but|then|so)\b", re.IGNORECASE)


def tense_near(text: str, start: int, end: int) -> str | None:
    """"past", "future", or None for the date at ``text[start:end]``: the nearest tense cue before
    it in its sentence, else the first one after it in its clause."""
    before = text[:start]
    cut = [m.end() for m in _SENTENCE_END.finditer(before)]
    before = before[cut[-1]:] if cut else before
    cues = list(_CUE.finditer(before))
    if cues:
        return "future" if cues[-1].group("future") else "past"
    after = text[end:]
    stop = _CLAUSE_END.search(after)
    m = _CUE.search(after[:stop.start()] if stop else after)
    if m is None:
        return None
    return "future" if m.group("future") else "past"
