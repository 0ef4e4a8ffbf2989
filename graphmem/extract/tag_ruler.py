"""The model's attribute ruler, matched faster and with the same result.

``en_core_web_sm``'s ``attribute_ruler`` turns each fine tag into a coarse part of speech and
morphology, with exceptions for particular words ("her" tagged PRP$, "'s" tagged VBZ …). It does so
with spaCy's ``Matcher`` over 179 patterns, and that took 1.1–1.5 ms a parsed chat turn (two
measurements over LoCoMo's turns) — up to a fifth of the whole parse, about what the dependency
parser takes. 155 of those patterns test one token's tag and/or lowercase form for equality (or
membership in a list), so they are looked up in dicts here. Only the other 24 (dependency labels,
regular expressions, two tokens …) go through a ``Matcher``.

The answer is the ruler's own: the matches are put in the order the ruler sorts them in (pattern
index, so a later rule wins) and handed to its own ``set_annotations``. Only finding them changed,
and ``tests/unit/test_tag_ruler.py`` holds the two to the same annotations.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

__all__ = ["install"]

_KEYS = frozenset({"TAG", "LOWER"})


def _values(test: Any) -> list[str] | None:
    """The strings a token attribute may equal under ``test``, or None if it is not an equality."""
    if isinstance(test, str):
        return [test]
    if isinstance(test, dict) and set(test) == {"IN"} and all(isinstance(v, str) for v in test["IN"]):
        return list(test["IN"])
    return None


class _Index:
    """Which of the ruler's patterns a token matches: dicts for the one-token equality patterns, a
    Matcher for the rest. Replaces the ruler's ``match``; its ``set_annotations`` is unchanged.
    Built once from the ruler's patterns (graphmem never adds any later). A wildcard token ``{}``
    is falsy, so it stays with the Matcher like every pattern the dicts cannot say."""

    def __init__(self, ruler: Any) -> None:
        from spacy.matcher import Matcher

        self.ruler = ruler
        strings = ruler.vocab.strings
        self.by_tag: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.by_lower: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.by_both: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
        self.rest = Matcher(ruler.vocab)
        for i, entry in enumerate(ruler.patterns):
            key = strings[str(i)]
            alts = entry["patterns"]
            token = alts[0][0] if len(alts) == 1 and len(alts[0]) == 1 else None
            if token and set(token) <= _KEYS and all(_values(v) is not None for v in token.values()):
                tags, lowers = _values(token.get("TAG")), _values(token.get("LOWER"))
                if tags and lowers:
                    for tag in tags:
                        for lower in lowers:
                            self.by_both[(tag, lower)].append((i, key))
                elif tags:
                    for tag in tags:
                        self.by_tag[tag].append((i, key))
                elif lowers:
                    for lower in lowers:
                        self.by_lower[lower].append((i, key))
                continue
            self.rest.add(key, alts)

    def match(self, doc: Any) -> list[tuple[int, int, int, int]]:
        """The ruler's matches for ``doc`` as its own ``match`` returns them: (pattern index, match
        key, start, end), sorted."""
        strings = self.ruler.vocab.strings
        found = [(int(strings[key]), key, start, end) for key, start, end in
                 self.rest(doc, allow_missing=True, as_spans=False)]
        by_tag, by_lower, by_both = self.by_tag, self.by_lower, self.by_both
        for token in doc:
            tag, lower, i = token.tag_, token.lower_, token.i
            for hits in (by_tag.get(tag), by_lower.get(lower), by_both.get((tag, lower))):
                if hits:
                    found.extend((index, key, i, i + 1) for index, key in hits)
        found.sort()
        return found


def install(nlp: Any) -> None:
    """Have ``nlp``'s attribute ruler (if it has one) find its matches through :class:`_Index`."""
    if "attribute_ruler" in nlp.pipe_names:
        ruler = nlp.get_pipe("attribute_ruler")
        ruler.match = _Index(ruler).match
