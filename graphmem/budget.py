"""Counting tokens offline, to fit a context into a prompt budget.

No model tokenizer ships with graphmem (tiktoken and Hugging Face tokenizers fetch their
vocabularies at run time, which this store must never do), so :func:`count_tokens` is an
estimate, built to *over*-count the byte-pair encodings of current chat models a little rather
than under-count them:

* every CJK character (Han, kana, hangul) is one token — BPE vocabularies give most of them one
  token and some two, so long Chinese text is close to even;
* a run of Latin letters is one token per four letters, rounded up (BPE averages ~4.2 characters
  per English token);
* a run of digits is one token per three digits (cl100k-style vocabularies split numbers in threes);
* every other visible character (punctuation, symbols, emoji) is one token; whitespace is free,
  except that each line break counts one.

A budget filled with this estimate therefore fits the model's real count with a small margin.
"""

from __future__ import annotations

import math
import re

__all__ = ["TOKENIZER", "count_tokens"]

TOKENIZER = "graphmem.budget.count_tokens (offline estimate: CJK 1/char, letters 1/4 chars, digits 1/3, symbols 1)"

_PIECES = re.compile(
    r"(?P<cjk>[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af])"
    r"|(?P<word>[A-Za-z\u00c0-\u024f]+)"
    r"|(?P<num>[0-9]+)"
    r"|(?P<nl>\n)"
    r"|(?P<other>[^\s])"
)


def count_tokens(text: str) -> int:
    """The estimated number of model tokens in ``text`` (0 for empty text)."""
    total = 0
    for m in _PIECES.finditer(text):
        kind = m.lastgroup
        if kind == "word":
            total += math.ceil(len(m.group()) / 4)
        elif kind == "num":
            total += math.ceil(len(m.group()) / 3)
        else:
            total += 1
    return total
