"""Open vocabulary: facts in common statement shapes, beyond the built-in topics.

Shapes read (English through spaCy's parse, Chinese through patterns):

* "my X is Y" ("My hometown is Dayton", "My favorite color is blue", "My dog's name is Luna");
* "Y is my favorite X" ("Harry Potter is my favorite book" → favorite_book);
* "I work as a X", "I'm a X" (X an occupation word), "I study at X";
* "I have a dog named X";
* "我的X是Y", "我是一名X", "我在X上学/读书".

The topic is the canonical name of the noun X: modifiers and head noun in snake_case, mapped
through the vocabulary's ``open.synonyms`` (job / occupation / profession → ``occupation``). A topic
listed in ``open.declared`` is stored as a plain L1 statement; any other is an **L2 candidate**
(visible on request, never an answer by default) until someone confirms it. Every open fact goes
through the same precision gates as the built-in topics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

__all__ = ["OpenFound", "open_en", "open_zh"]

_SKIP_NOUNS = {"name", "one", "thing", "problem", "question", "point", "idea", "guess", "bad", "fault", "turn",
               "pleasure", "goal", "plan", "dream", "hope", "wish", "advice", "opinion", "day", "week", "life",
               "time", "mind", "heart", "story", "way", "answer", "reason", "excuse", "secret", "bet", "job"}
_WORD = re.compile(r"^[a-z][a-z'-]*$")
_ANIMALS = {"dog", "cat", "puppy", "kitten", "parrot", "rabbit", "bunny", "hamster", "turtle", "horse", "fish",
            "snake", "lizard", "bird", "pig", "guinea pig"}
_PERSON_NOUNS = {"wife", "husband", "partner", "spouse", "boyfriend", "girlfriend", "son", "daughter", "kid", "kids",
                 "child", "children", "mom", "mother", "dad", "father", "parents", "brother", "sister", "friend",
                 "friends", "colleague", "boss", "manager", "roommate", "neighbor", "neighbour", "family", "cousin",
                 "aunt", "uncle", "grandma", "grandpa", "grandmother", "grandfather", "team", "mum", "fiance",
                 "fiancee", "buddy", "baby", "babies", "sibling", "siblings", "parent", "bestie", "bff", "pet",
                 "pets"} | _ANIMALS


@dataclass(frozen=True)
class OpenFound:
    topic: str
    value: str
    span: tuple[int, int]  # characters in the document (en) or sentence (zh)
    declared: bool
    gated: bool = False  # already through its own precision gates (personal.py)


def canonical(words: list[str], synonyms: dict[str, str]) -> str:
    phrase = " ".join(w.lower() for w in words)
    if phrase in synonyms:
        return synonyms[phrase]
    head = words[-1].lower() if words else ""
    if len(words) == 1 and head in synonyms:
        return synonyms[head]
    return re.sub(r"[^\w]+", "_", phrase).strip("_")


def _value_span(tok: Any) -> tuple[int, int]:
    toks = [t for t in tok.subtree if not (t.dep_ == "det" and t.i == tok.left_edge.i) and not t.is_punct]
    toks = [t for t in toks if t.dep_ not in ("relcl", "acl", "prep", "cc", "conj") or t.i < tok.i]
    # keep a contiguous run around the head
    lo = hi = tok.i
    ids = {t.i for t in toks}
    while lo - 1 in ids:
        lo -= 1
    while hi + 1 in ids:
        hi += 1
    doc = tok.doc
    return doc[lo].idx, doc[hi].idx + len(doc[hi].text)


@dataclass(frozen=True)
class _Config:
    """The vocabulary's ``open`` settings one English sentence is read with."""

    synonyms: dict[str, str]
    declared: set[str]
    jobs: set[str]


def _found(topic: str, tok: Any, cfg: _Config) -> OpenFound:
    a, b = _value_span(tok)
    return OpenFound(topic, tok.doc.text[a:b], (a, b), topic in cfg.declared)


def _main(be: Any) -> bool:
    """The main clause, or one the parser hung on the next ("My favorite band is X, they never…")."""
    return bool(be.dep_ == "ROOT" or (be.dep_ in ("ccomp", "parataxis") and be.head.i > be.i
                                      and not any(c.dep_ == "mark" for c in be.children)))


def _is_my_x(tok: Any, cfg: _Config) -> bool:
    return bool(tok.dep_ == "nsubj" and tok.pos_ == "NOUN" and tok.head.lower_ in ("is", "'s", "was") and _main(tok.head))


def _my_x_is_y(tok: Any, cfg: _Config) -> OpenFound | None:
    """"My hometown is Dayton", "my favorite color is blue", "my dog's name is Luna" — not a
    person ("my wife is …"), not an opinion ("my job is stressful"), not a pronoun."""
    poss = [c for c in tok.children if c.dep_ == "poss"]
    if not poss:
        return None
    owner = poss[0]
    mods = [c.text for c in tok.children if c.dep_ in ("amod", "compound") and c.i < tok.i and _WORD.match(c.lower_)]
    if owner.lower_ in ("my", "our"):
        words = mods + [tok.lower_]
    elif owner.pos_ == "NOUN" and owner.lower_ in _ANIMALS and tok.lower_ == "name" and any(
            c.dep_ == "poss" and c.lower_ == "my" for c in owner.children):
        words = [owner.lower_, "name"]  # "my dog's name is Luna"
    else:
        return None
    if tok.lower_ in _PERSON_NOUNS or (tok.lower_ in _SKIP_NOUNS and words != [tok.lower_] and tok.lower_ != "name") \
            or (words == [tok.lower_] and tok.lower_ in _SKIP_NOUNS and tok.lower_ not in cfg.synonyms):
        return None
    if words in (["name"], ["favorite"], ["favourite"], ["fave"]):
        return None  # "my favorite is the sundae": favourite what?
    attr = next((c for c in tok.head.children if c.dep_ in ("attr", "acomp") and c.i > tok.head.i), None)
    if attr is None:
        return None
    favourite = any(w.lower() in ("favorite", "favourite", "fave") for w in mods)
    if attr.dep_ == "acomp" and not favourite:
        return None  # "my job is stressful" is an opinion, not a value
    if attr.pos_ in ("PRON", "DET") or attr.lower_ in ("one", "it", "this", "that"):
        return None
    return _found(canonical(words, cfg.synonyms), attr, cfg)


_FAVOURITE = ("favorite", "favourite", "fave")


def _is_y_my_favourite(tok: Any, cfg: _Config) -> bool:
    return bool(tok.dep_ == "attr" and tok.pos_ == "NOUN" and tok.head.lower_ in ("is", "'s") and _main(tok.head)
                and any(c.dep_ == "poss" and c.lower_ == "my" for c in tok.children)
                and any(c.dep_ == "amod" and c.lower_ in _FAVOURITE for c in tok.children))


def _y_my_favourite(tok: Any, cfg: _Config) -> OpenFound | None:
    """"Harry Potter is my favorite book" → favorite_book = Harry Potter: the subject named (a
    name or a noun, never a pronoun: "It's my favorite book" says nothing here)."""
    subj = next((c for c in tok.head.children if c.dep_ == "nsubj" and c.i < tok.head.i), None)
    if subj is None or subj.pos_ not in ("PROPN", "NOUN") or any(
            c.dep_ in ("det", "poss") and c.lower_ in ("this", "that", "these", "those", "your", "his", "her", "their")
            for c in subj.children):
        return None
    mods = [c.text for c in tok.children if c.dep_ in ("amod", "compound") and c.i < tok.i and _WORD.match(c.lower_)]
    if tok.lower_ in _PERSON_NOUNS or tok.lower_ in _SKIP_NOUNS:
        return None
    return _found(canonical(mods + [tok.lower_], cfg.synonyms), subj, cfg)


def _is_work_as(tok: Any, cfg: _Config) -> bool:
    return bool(tok.lower_ == "as" and tok.head.lower_ in ("work", "works", "working") and tok.dep_ == "prep")


def _work_as(tok: Any, cfg: _Config) -> OpenFound | None:
    """"I work as a nurse"."""
    obj = next((c for c in tok.children if c.dep_ == "pobj"), None)
    return _found("occupation", obj, cfg) if obj is not None and obj.pos_ == "NOUN" else None


def _is_i_am_a(tok: Any, cfg: _Config) -> bool:
    return bool(tok.dep_ == "attr" and tok.lower_ in cfg.jobs and tok.head.lower_ in ("'m", "am", "was")
                and any(c.dep_ == "nsubj" and c.lower_ == "i" for c in tok.head.children))


def _i_am_a(tok: Any, cfg: _Config) -> OpenFound | None:
    """"I'm a nurse" (an occupation word of the vocabulary)."""
    return _found("occupation", tok, cfg)


def _is_study_at(tok: Any, cfg: _Config) -> bool:
    return bool(tok.lower_ == "at" and tok.head.lower_ in ("study", "studying") and tok.dep_ == "prep")


def _study_at(tok: Any, cfg: _Config) -> OpenFound | None:
    """"I study at Ohio State"."""
    obj = next((c for c in tok.children if c.dep_ == "pobj" and c.pos_ == "PROPN"), None)
    return _found("school", obj, cfg) if obj is not None else None


def _is_named(tok: Any, cfg: _Config) -> bool:
    return bool(tok.lower_ in ("named", "called") and tok.head.lower_ in _ANIMALS and tok.head.dep_ == "dobj"
                and tok.head.head.lower_ in ("have", "got", "adopted", "own"))


def _pet_named(tok: Any, cfg: _Config) -> OpenFound | None:
    """"I have a dog named Max" → dog_name."""
    name = next((c for c in tok.children if c.dep_ in ("oprd", "attr", "dobj", "npadvmod") and c.pos_ == "PROPN"), None)
    return _found(canonical([tok.head.lower_, "name"], cfg.synonyms), name, cfg) if name is not None else None


# The English shapes: (does this token start the shape, read it). A token starts one shape at most:
# the first whose test holds reads it.
_SHAPES_EN: tuple[tuple[Callable[[Any, _Config], bool], Callable[[Any, _Config], OpenFound | None]], ...] = (
    (_is_my_x, _my_x_is_y), (_is_y_my_favourite, _y_my_favourite), (_is_work_as, _work_as), (_is_i_am_a, _i_am_a), (_is_study_at, _study_at),
    (_is_named, _pet_named))


def open_en(sent: Any, open_cfg: dict[str, Any]) -> list[OpenFound]:
    """Open-vocabulary matches in one parsed English sentence (not yet gated)."""
    cfg = _Config(open_cfg.get("synonyms", {}), set(open_cfg.get("declared", [])),
                  set(open_cfg.get("occupations", {}).get("en", [])))
    out: list[OpenFound] = []
    for tok in sent:
        read = next((read for starts, read in _SHAPES_EN if starts(tok, cfg)), None)
        found = read(tok, cfg) if read is not None else None
        if found is not None:
            out.append(found)
    return out


_ZH_MY = re.compile(r"我的(?P<noun>[\u4e00-\u9fff]{1,4}?)(?:是|叫)(?P<value>[\u4e00-\u9fffA-Za-z0-9·]{1,12}?)(?=[。，,！!；;]|$)")
_ZH_SCHOOL = re.compile(r"我在(?P<value>[\u4e00-\u9fffA-Za-z0-9]{2,12}?)(?:上学|读书|读研|读博|念书|上大学)(?=[了啦。，,！!]|$)")
_ZH_JOB = re.compile(r"我是(?:一名|一个|一位|个|名)?(?P<value>[\u4e00-\u9fff]{1,8}?)(?=[。，,！!；;]|$)")
_ZH_PERSONISH = re.compile(r"老婆|妻子|太太|老公|丈夫|男朋友|女朋友|对象|爸|妈|父亲|母亲|儿子|女儿|孩子|哥|姐|弟|妹|朋友|同事|室友|"
                           r"邻居|老板|领导|同学|狗|猫|宠物|问题|想法|意思|目标|梦想|错|天|心")


def open_zh(sentence: str, open_cfg: dict[str, Any]) -> list[tuple[OpenFound, int]]:
    """Open-vocabulary matches in one Chinese sentence, each with where its cue starts."""
    syn: dict[str, str] = open_cfg.get("synonyms", {})
    declared = set(open_cfg.get("declared", []))
    jobs = set(open_cfg.get("occupations", {}).get("zh", []))
    out: list[tuple[OpenFound, int]] = []
    for m in _ZH_MY.finditer(sentence):
        noun = m.group("noun")
        if _ZH_PERSONISH.search(noun):
            continue
        topic = syn.get(noun, noun)
        out.append((OpenFound(topic, m.group("value"), m.span("value"), topic in declared), m.start()))
    for m in _ZH_SCHOOL.finditer(sentence):
        out.append((OpenFound("school", m.group("value"), m.span("value"), "school" in declared), m.start()))
    for m in _ZH_JOB.finditer(sentence):
        if m.group("value") in jobs:
            out.append((OpenFound("occupation", m.group("value"), m.span("value"), "occupation" in declared), m.start()))
    return out
