"""A Chinese sentence whose last clause is a side question ("…酒店订的钟楼亚朵，有在西安的朋友吗").

The sentencizer splits at 。！？, but people end a statement with a question to the chat after a
comma and no question mark. The question asks nothing about the statement before it, so it is
split off as a sentence of its own: the gates still refuse it (a question asserts nothing) and the
clauses before it are read. A question that asks about the statement itself — 对吗, 可以吗, 是吧,
行不行, or one with 你/您 asking the listener's view of it ("你觉得呢") — keeps the sentence whole,
so the whole sentence stays a question.
"""

from __future__ import annotations

import re

__all__ = ["split_side_question"]

_LAST_CLAUSE = re.compile(r"[，,](?P<q>[^，,。！？!?]{2,20}?[吗呢么][~～。！!\s]*)$")
_ABOUT_IT = re.compile(r"对|可以|行|好|是|确定|真的|没错|你|您|吧|怎么样|如何|啥|什么")


def split_side_question(offset: int, sentence: str) -> list[tuple[int, str]]:
    """``[(offset, sentence)]``, or the statement and its side question as two sentences."""
    m = _LAST_CLAUSE.search(sentence)
    if m is None or "?" in sentence or "？" in sentence or _ABOUT_IT.search(m.group("q")):
        return [(offset, sentence)]
    return [(offset, sentence[:m.start("q")]), (offset + m.start("q"), sentence[m.start("q"):])]
