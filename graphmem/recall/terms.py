"""What recall takes from the task text, by rule and without a model: the words to search with,
the topics it names (the vocabulary's cues and nouns) and the entity ids it mentions — English and
Chinese. Every leg of :func:`graphmem.recall.recall.context` starts from these."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.tenant_key import tenant_key
from ..core.text import HAN_RUN
from ..extract.vocabulary import Vocabulary

__all__ = ["MAX_MENTIONS", "MAX_TERMS", "MAX_TOPICS", "PLAN_LENGTH", "TaskTerms", "analyse", "cue_in", "pad", "phrase",
           "plan_shaped", "scoped"]

MAX_MENTIONS, MAX_TOPICS, MAX_TERMS = 300, 16, 48

_STOP_EN = frozenset("""a an and are as at be been but by can could did do does for from had has have he her his
how i if in into is it its me my need needs of on or our please she should so that the their them then there these
they this to us was we were what when where which who whom why will with would you your tell know about any some
up out get give find show does doing done just now today tomorrow yesterday""".split())
_WORD = re.compile(r"[A-Za-z0-9\u00c0-\u024f](?:[A-Za-z0-9\u00c0-\u024f_.:/\-]*[A-Za-z0-9\u00c0-\u024f])?")
_ZH_STOP = frozenset("的了吗呢吧啊我你他她它们是在有和与就都也还要会能这那哪什么怎么请帮一下个")


@dataclass(frozen=True)
class TaskTerms:
    """What recall takes from the task text: search terms, topics named, entity ids named."""

    terms: list[str]
    topics: list[str]
    mentions: list[str]

    def lucene(self, tenant: str) -> str | None:
        """A Lucene query for ``memory_text``: the tenant's key required (:func:`scoped`), the terms
        as optional phrases (every term quoted and escaped: task text never becomes query syntax)."""
        if not self.terms and not self.topics:
            return None
        parts = [phrase(t) for t in self.terms] + [f"topic:{phrase(t)}^2" for t in self.topics]
        return scoped(tenant, " OR ".join(parts))


def scoped(tenant: str, query: str) -> str:
    """``query`` kept to ``tenant`` inside the full-text index: the tenant's key
    (graphmem.core.tenant_key, one exact token under every analyzer) as a required clause with a
    zero boost, so it selects without adding to a hit's score, and ``query`` required beside it.
    Why not ``tenant:"…"``: the analysed name let look-alike tenants ("Acme", "acme.", "acmes")
    share their top-k, and a name with no word character had no scope at all. Every query still
    re-checks ``node.tenant = $tenant`` on each hit."""
    return f'+tenant_key:"{tenant_key(tenant)}"^0 +({query})'


PLAN_LENGTH = 128


def plan_shaped(query: str | None) -> str | None:
    """A Lucene query as a parameter: padded with trailing spaces (which Lucene ignores) to at least
    128 characters. Neo4j keys a cached plan by its parameters' types and, for a string, a bucket of
    its length, about a power of ten (measured: after a 123-character query had planned
    recall/messages, the same query at 78 or 100 characters was planned again, 0.6 s, at 101, 123 or
    260 it was not); padded, every task's query but the very long falls in one bucket, the one
    graphmem.recall.warm plans."""
    return None if query is None else query.ljust(PLAN_LENGTH)


def phrase(text: str) -> str:
    """``text`` as one quoted, escaped Lucene phrase: task text never becomes query syntax."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def analyse(task: str, vocabulary: Vocabulary | None = None) -> TaskTerms:
    """Terms, topics and entity mentions of a task, English and Chinese, by rule (no model)."""
    vocabulary = vocabulary or Vocabulary.default()
    lowered = task.lower()
    words = [w for w in _WORD.findall(task)]
    terms: list[str] = []
    for w in words:
        if w.lower() not in _STOP_EN and (len(w) > 1 or w.isdigit()) and w.lower() not in (t.lower() for t in terms):
            terms.append(w)
    mentions: list[str] = []
    for w in words:
        mentions += [w, w.lower()]
    for a, b in zip(words, words[1:]):
        mentions += [f"{a} {b}", f"{a}_{b}".lower(), f"{a}-{b}".lower()]
    for run in HAN_RUN.findall(task):
        if len(terms) >= MAX_TERMS and len(mentions) >= MAX_MENTIONS:
            break  # a long text: enough to search with
        for i in range(len(run) - 1):
            bigram = run[i:i + 2]
            if not set(bigram) <= _ZH_STOP and bigram not in terms:
                terms.append(bigram)
        for n in range(2, 7):
            mentions += [run[i:i + n] for i in range(min(len(run) - n + 1, MAX_MENTIONS))]
    topics: list[str] = []
    for name, rules in vocabulary.topics.items():
        cues = [name, name.replace("_", " "), *rules.nouns.get("en", []), *rules.nouns.get("zh", []),
                *rules.cues.get("en", []), *rules.cues.get("zh", [])]
        if any(cue_in(c, lowered) for c in cues):
            topics.append(name)
    # Topic names written out in the task ("deploy.port", "home_address") count as topics too.
    topics += [w for w in words if ("_" in w or "." in w) and w not in topics and not w[0].isdigit()]
    return TaskTerms(terms=terms[:MAX_TERMS], topics=topics[:MAX_TOPICS],
                     mentions=list(dict.fromkeys(mentions))[:MAX_MENTIONS])


def pad(values: list[str], n: int) -> list[str]:
    """``values`` cut or padded with "" (which no id can be) to exactly ``n``: Neo4j plans a query per
    bucket of list sizes, so fixed shapes compile a large query once."""
    return list(values[:n]) + [""] * (n - len(values[:n]))


def cue_in(cue: str, lowered: str) -> bool:
    """Whether a vocabulary cue occurs in lower-cased text: as a whole word, or anywhere if it is Chinese."""
    cue = cue.lower()
    if HAN_RUN.search(cue):
        return cue in lowered
    return re.search(r"(?<![a-z0-9])" + re.escape(cue) + r"(?![a-z0-9])", lowered) is not None
