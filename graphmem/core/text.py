"""Which characters are CJK: one definition for every layer.

Recall splits a task into Chinese bigrams, the token counter counts a CJK character as one token,
the hashing embedder hashes CJK uni/bigrams and the extractor picks the Chinese rules — each used
to carry its own character range, and they had drifted apart (one missed the compatibility
ideographs, two included kana and hangul). The ranges are kept as strings too, for patterns that
embed them in a larger character class.
"""

from __future__ import annotations

import re

__all__ = ["CJK", "CJK_RUN", "HAN", "HAN_RUN", "has_han"]

#: Chinese characters: CJK Unified Ideographs, Extension A and the compatibility block.
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
#: Han plus Japanese kana and Korean hangul: every character a BPE vocabulary gives about one token.
CJK = HAN + "\u3040-\u30ff\uac00-\ud7af"

HAN_RUN = re.compile(f"[{HAN}]+")
CJK_RUN = re.compile(f"[{CJK}]+")


def has_han(text: str) -> bool:
    """Whether ``text`` has a Chinese character (it then goes to the Chinese rules and index)."""
    return HAN_RUN.search(text) is not None
