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

import re

from ..core.text import CJK

__all__ = ["TOKENIZER", "count_tokens"]

TOKENIZER = "graphmem.budget.count_tokens (offline estimate: CJK 1/char, letters 1/4 chars, digits 1/3, symbols 1)"

_LETTERS = "A-Za-z\u00c0-\u024f"
_CJK_CHAR = re.compile(f"[{CJK}]")
_WORD = re.compile(f"[{_LETTERS}]+")
_NUM = re.compile("[0-9]+")
_OTHER = re.compile(f"[^\\s{CJK}{_LETTERS}0-9]")


def count_tokens(text: str) -> int:
    """The estimated number of model tokens in ``text`` (0 for empty text).

    The four kinds of piece never overlap (a run of letters stops at a digit, a CJK character or
    a symbol), so each is counted with its own pattern: a context fits its budget by counting
    every block it renders, and one combined pattern matched piece by piece cost ~40% of a
    context() call's Python time."""
    words = sum((len(w) + 3) // 4 for w in _WORD.findall(text))
    numbers = sum((len(n) + 2) // 3 for n in _NUM.findall(text))
    return len(_CJK_CHAR.findall(text)) + words + numbers + text.count("\n") + len(_OTHER.findall(text))
