"""Precision gates: does a sentence *assert* the fact a pattern found, and about whom?

A pattern match is only a candidate. It becomes a fact when its clause is a declarative statement
by the speaker about themselves (or about the thing under discussion, or about a named person):

* not a question ("…, how bad is it?", "你对猫过敏吗？");
* not second person ("you mentioned you were allergic to pets", "你说你搬到了杭州");
* not someone else left unnamed ("my wife works at Google", "我老婆在腾讯上班");
* not hypothetical or undecided ("I might move to Berlin", "if I move…", "我考虑去杭州");
* not negated ("I'm not allergic to cats"): the caller may turn a negation into a revoke when it
  withdraws a value the speaker holds, never into a set;
* reported speech about a named person ("Tom said he moved to Denver") is about that person.

English uses spaCy's dependency parse, morphology and entities; Chinese (no parser offline) uses
the clause around the cue. A gate that cannot decide says no: a missed fact is better than a
wrong one an agent trusts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .person_words import PERSON_NOUNS, SOMEONE
from .places import is_not_a_city

__all__ = ["Verdict", "judge_en", "judge_zh", "is_question"]

# Topics where wanting/asking *is* the fact ("I'd like replies in English").
PREFERENCE_TOPICS = {"reply_language", "report_language"}
# Topics that describe a plan in time; past narrative about them is an episode, not a standing fact.
PLAN_TOPICS = {"trip_city", "trip_lodging"}

_MODALS = {"might", "may", "could", "would", "should", "'d", "ought", "must"}
_PREF_OK_MODALS = {"should", "must", "would", "'d"}
_HYPO_WORDS = {"want", "wants", "wanted", "wanting", "wish", "wishes", "wished", "hope", "hopes", "hoped", "hoping",
               "consider", "considers", "considered", "considering", "think", "thinks", "thinking", "plan", "plans",
               "planned", "planning", "dream", "dreams", "dreaming", "imagine", "imagining", "wonder", "wondering",
               "maybe", "perhaps", "possibly", "probably", "if", "unless", "whether", "try", "trying", "tried",
               "thought", "debating", "deciding", "ask", "asked", "asking", "suppose",
               "supposed", "pretend", "pretending", "hypothetically", "someday", "one day", "eventually"}
_ENDED = {"lost", "lose", "losing", "quit", "quitting", "left", "leave", "leaving", "fired", "resigned", "retired",
          "ended", "laid", "sacked", "dumped", "missed", "miss", "skipped", "declined", "rejected", "turned"}
_PREF_VERBS = {"want", "wants", "like", "prefer", "prefers", "love", "wish"}
_FIRST = {"i", "we", "me", "us", "myself", "ourselves"}
_SECOND = {"you", "u", "ya", "yourself", "y'all", "ye"}
_THIRD = {"he", "she", "they", "him", "her", "them", "it", "this", "that", "these", "those", "who", "which"}
_REPORTING = {"said", "says", "say", "told", "tells", "mentioned", "mentions", "wrote", "writes", "thinks", "thought",
              "believes", "believed", "claims", "claimed", "heard", "hears", "noted", "added", "assume", "assumes"}
_PAST_TIME = re.compile(r"\b(?:last\s+(?:week|weekend|month|year|summer|winter|spring|fall|autumn|night|time|"
                        r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)|ago|yesterday|back then|"
                        r"years? back|when I was|as a kid|in (?:19|20)\d\d)\b|上周|上个?月|去年|前年|昨天|前天|以前|那时|小时候",
                        re.I)
_PAST_STATE = re.compile(r"\bused to\b|\bback when\b|\bwhen I was (?:a kid|a child|young|little|younger|a student)\b|"
                         r"\bas a (?:kid|child)\b|\bgrowing up\b|\bonce upon\b|小时候|(?<![号日天一二三四五六])以前|那时候|那时|曾经|过去|当年|原来(?!的)")
_START_CUE = re.compile(r"\b(?:start|starts|starting|started|from|as of|joining|joined|new job|officially|onboarding)\b", re.I)
_BAD_PLACE_LABELS = {"ORG", "FAC", "PRODUCT", "NORP", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE", "DATE", "TIME",
                     "MONEY", "QUANTITY", "PERCENT", "CARDINAL", "ORDINAL"}
_NOT_HEADS = {"diet", "food", "eater", "lifestyle", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep",
              "sept", "oct", "nov", "dec", "january", "february", "march", "april", "june", "july", "august",
              "september", "october", "november", "december", "monday", "tuesday", "wednesday", "thursday",
              "friday", "saturday", "sunday", "tomorrow", "today", "next", "this", "pls", "plz", "please", "thx",
              "thanks", "ty", "btw", "fyi", "thank"}
_VERB_DEPS = {"ROOT", "ccomp", "xcomp", "advcl", "conj", "relcl", "acl", "pcomp", "csubj", "parataxis"}

_CORP = re.compile(r"\b(?:Inc|Corp|Corporation|Ltd|LLC|GmbH|AG|Co|Company|Technologies|Technology|Tech|Labs|Group|"
                   r"Bank|Systems|Software|Robotics|Solutions|Partners|Capital|Studio|Studios|Consulting|Health|"
                   r"Media|Networks|Motors|Pharma|University|Institute|Hospital|School|College)\b\.?")
_Q_WORDS_EN = re.compile(r"^\s*(?:what|where|when|who|whom|whose|which|why|how|do|does|did|are|is|am|was|were|"
                         r"can|could|would|will|shall|should|have|has|had|may|might)\b", re.I)


@dataclass(frozen=True)
class Verdict:
    """``ok``: the clause asserts it; ``subject``: whom it is about (None: the caller's default);
    ``negated``: the clause denies it; ``why``: the gate that said no."""

    ok: bool
    subject: str | None = None
    negated: bool = False
    why: str = ""


NO = Verdict(False)


def is_question(sentence: str, lang: str) -> bool:
    s = sentence.strip()
    if s.endswith(("?", "？")):
        return True
    if lang == "zh":
        core = s.rstrip("。！!~～ ")
        return core.endswith(("吗", "么", "呢")) or bool(re.search(r"是不是|有没有|(?<!不)对不对|要不要|会不会", s))
    return False


def _first_name(text: str) -> str:
    return re.sub(r"[^\w-]", "", text.split()[0]).lower() if text.split() else ""


def _person_of(tok: Any) -> str | None:
    ent = next((e for e in tok.doc.ents if e.start <= tok.i < e.end and e.label_ == "PERSON"), None)
    return _first_name(ent.text) if ent is not None else None


def _subject_child(verb: Any) -> Any:
    """The verb's subject; with two (a parse error on "Hi Sam, I'll be…"), the one nearest before it."""
    subs = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass", "csubj")]
    before = [c for c in subs if c.i < verb.i]
    return before[-1] if before else (subs[0] if subs else None)


def _name_of(tok: Any) -> str | None:
    """A person's name: a PERSON entity, or a capitalised proper noun no entity calls a place or
    an organisation (spaCy's small model misses many names)."""
    name = _person_of(tok)
    if name:
        return name
    greeting = tok.i > 0 and tok.doc[tok.i - 1].lower_ in ("dear", "hi", "hello", "hey", "to", "attn")
    if tok.tag_ == "NNP" and tok.text[:1].isupper() and not tok.text.isupper() and not greeting and not any(
            e.start <= tok.i < e.end and e.label_ in ("GPE", "LOC", "FAC", "NORP", "DATE", "TIME") for e in tok.doc.ents):
        if not any(e.start <= tok.i < e.end and e.label_ == "ORG" for e in tok.doc.ents) or tok.dep_ == "poss":
            return _first_name(tok.text)
    return None


def _modal_or_hypo(verb: Any, topic: str) -> bool:
    pref = topic in PREFERENCE_TOPICS
    for c in verb.children:
        low = c.lower_
        if c.dep_ == "aux" and c.tag_ == "MD" and low in _MODALS and not (pref and low in _PREF_OK_MODALS):
            return True
        if c.dep_ == "mark" and low in ("if", "unless", "whether"):
            return True
        if c.dep_ == "advmod" and low in ("maybe", "perhaps", "possibly", "probably", "hopefully", "eventually"):
            return True
    low = verb.lower_
    if low in _HYPO_WORDS and not (pref and low in _PREF_VERBS):
        return True
    return False


def _negated(verb: Any) -> bool:
    return any(c.dep_ == "neg" or c.lower_ in ("never", "no") and c.dep_ in ("advmod", "det", "neg")
               for c in verb.children)


def judge_en(sent: Any, a: int, b: int, topic: str, about_topic: bool, bounded: bool,
             nouns: frozenset[str] = frozenset(), shape: str | None = None, ending: bool = False) -> Verdict:
    """Gate one English match: ``sent`` is the spaCy sentence span, ``a:b`` the value's characters
    in the document; ``about_topic`` for things under discussion (port, network). The gates run
    in order — the value itself, the verbs above it, the subject — and the first no wins. ``ending``:
    the pattern itself says the value ended ("I left Initech"), so an ending verb is its cue, not a
    reason to refuse."""
    if is_question(sent.text, "en") or (_Q_WORDS_EN.match(sent.text) and sent.text.rstrip().endswith("?")):
        return Verdict(False, why="question")
    value = sent.doc.char_span(a, b, alignment_mode="expand")
    if value is None or len(value) == 0:
        return Verdict(False, why="span")
    why = _value_says_no(sent, value, topic, nouns, shape)
    if why:
        return Verdict(False, why=why)
    verbs, nested_noun = _verbs_above(sent, value)
    why, reporter = _verbs_say_no(verbs, topic, ending)
    if why:
        return Verdict(False, why=why)
    if re.match(r"^\W*(?:(?:lol|haha|ok|so|but|and|well|ngl|tbh|hmm)\W+)*(?:if|what if|suppose|imagine|hypothetically|maybe|perhaps|probably|prob|probs|prolly|possibly|according to|rumou?r has it|"
                r"(?:the|our)\s+(?:docs?|documentation|wiki|registry|readme|runbook|dashboard|spec)\s+(?:says?|said|shows?|claims?|lists?))\b", sent.text, re.I):
        return Verdict(False, why="hypothetical")
    negated = any(_negated(v) for v in verbs)
    if topic in PLAN_TOPICS and not bounded:
        if nested_noun:
            return Verdict(False, why="mentioned in passing")
        if any(v.tag_ == "VBD" for v in verbs) or _PAST_TIME.search(sent.text):
            return Verdict(False, why="past episode")
    top = verbs[-1]
    subj = _subject_child(top)
    if subj is None:
        if _an_instruction(sent, top, topic, about_topic) and not value.start <= top.i < value.end:
            return Verdict(False, why="an instruction, not a statement")  # "Tell me about living in Paris"
        return Verdict(True, None, negated)  # elliptical ("Moved to Berlin!"): the caller's default
    if subj.lower_ in _FIRST | _SECOND | _THIRD:
        return _pronoun_subject(subj, reporter, about_topic, negated)
    return _named_subject(subj, value, about_topic, negated)


def _value_says_no(sent: Any, value: Any, topic: str, nouns: frozenset[str], shape: str | None) -> str:
    """Why the value's own words are not the fact's value (a modifier, not an organisation, not a
    place, a past state), or "" when they may be."""
    # A name that only modifies a following noun is not the value ("the Ferrari dealership").
    last = value[-1]
    if last.dep_ in ("compound", "amod", "poss") and last.head.i >= value.end and last.head.pos_ in ("NOUN", "PROPN") \
            and last.head.lower_.rstrip("s") not in nouns and last.head.lower_ not in _NOT_HEADS \
            and not any(e.label_ in ("DATE", "TIME") and e.start <= last.head.i < e.end for e in sent.doc.ents):
        return "modifier"
    labels = {e.label_ for e in sent.doc.ents if e.start < value.end and value.start < e.end}
    if shape == "org" and "ORG" not in labels and not _CORP.search(value.text) and not (
            _START_CUE.search(sent.text) and not labels & {"PERSON", "LOC", "NORP", "DATE", "TIME"} and (
                "GPE" not in labels or (len(value) == 1 and not is_not_a_city(value.text) and value.start > 0
                                        and sent.doc[value.start - 1].lower_ in ("at", "with")))):
        # (a made-up company the small model calls a place — "Starting Monday I'll be at Hooli" — is
        # taken only after "at / with" in a sentence that says the job starts)
        return "not an organisation"
    if shape == "gpe" and not labels & {"GPE", "LOC"}:
        return "not a named place"  # "Austin here!" is a city only when spaCy says so: "Tom here!" is not
    if _PAST_STATE.search(sent.text):
        return "a past state"
    if topic in ("trip_city", "home_city") and labels & _BAD_PLACE_LABELS and not labels & {"GPE", "LOC"}:
        return "not a place"
    if topic in ("trip_city", "home_city") and is_not_a_city(value.text):
        return "a country or region, not a city"
    if topic == "trip_lodging" and labels & {"GPE", "LOC"} and not re.search(
            r"\b(?:Hotel|Inn|Hostel|Resort|Suites|Motel|Lodge|B&B|Airbnb)\b", value.text):
        return "a city is not a hotel"
    return ""


def _verbs_above(sent: Any, value: Any) -> tuple[list[Any], bool]:
    """The verbs from the value up to the first that has a subject (the sentence's root when there
    are none), and whether the value sits in a noun inside a noun ("a picture from a vacation in
    Florida": mentioned in passing)."""
    tok = value.root
    verbs: list[Any] = []
    nested_noun = False
    seen = 0
    while seen < 40:
        seen += 1
        if tok.pos_ in ("VERB", "AUX") or tok.dep_ in _VERB_DEPS and tok.pos_ not in ("NOUN", "PROPN", "PRON"):
            verbs.append(tok)
            if _subject_child(tok) is not None:
                break
        elif tok.pos_ in ("NOUN", "PROPN") and tok.dep_ == "pobj" and tok.head.head.pos_ in ("NOUN", "PROPN") \
                and tok.i != value.root.i:
            nested_noun = True
        if tok.head.i == tok.i:
            break
        tok = tok.head
    return (verbs or [sent.root]), nested_noun


def _beside(below: Any, up: Any) -> bool:
    """Is ``below`` a clause of its own set beside ``up`` rather than what ``up`` frames? "I work at
    Initech, so replies may be slow": spaCy hangs "work" under "be" as a ccomp, but the hedge is
    about the replies. A clause with its own subject, no "that", cut off from a governing verb that
    is no frame (not say / think / want …) by a comma or semicolon, keeps its own modality."""
    if below.dep_ not in ("ccomp", "parataxis", "conj") or up.lower_ in _HYPO_WORDS | _REPORTING:
        return False
    if _subject_child(below) is None or any(c.dep_ == "mark" and c.lower_ in ("that", "if", "whether")
                                             for c in below.children):
        return False
    lo, hi = sorted((below.i, up.i))
    doc = below.doc
    return any(doc[k].text in (",", ";", "—", "-", ":") for k in range(lo + 1, hi)) and not any(
        c.dep_ == "mark" and c.lower_ in ("if", "unless", "whether") for c in up.children)


def _verbs_say_no(verbs: list[Any], topic: str, ending: bool = False) -> tuple[str, Any]:
    """Why the verbs up to the subject, or any governing verb above them, make the clause not an
    assertion (hypothetical, ended) — "" when they do not — and the reporting verb above, if any
    ("Tom said he …")."""
    for v in verbs:
        if _modal_or_hypo(v, topic):
            return "hypothetical", None
        if v.lower_ in _ENDED and not ending:
            return "ended", None  # "I lost my job at Door Dash" is not a current employer
    up = verbs[-1]
    reporter = None
    for _ in range(6):
        if up.head.i == up.i:
            break
        below, up = up, up.head
        if up.pos_ in ("VERB", "AUX"):
            if _modal_or_hypo(up, topic) and up.lower_ not in _REPORTING and not _beside(below, up):
                return "hypothetical", None
            if up.lower_ in _REPORTING and any(c.dep_ == "aux" and c.tag_ == "MD" and c.lower_ in _MODALS
                                               for c in up.children):
                return "hypothetical", None  # "I might say I live in Berlin"
            if up.lower_ in _REPORTING and reporter is None:
                reporter = up
    return "", reporter


def _an_instruction(sent: Any, top: Any, topic: str, about_topic: bool) -> bool:
    """A subjectless sentence that opens with a bare verb ("Tell me about living in Paris",
    "please book the Hilton"): asked of someone, not stated."""
    return (top.dep_ == "ROOT" and top.tag_ == "VB" and not top.lower_.endswith("ed") and not about_topic
            and topic not in PREFERENCE_TOPICS
            and top.i == sent.start + next((k for k, t in enumerate(sent) if not t.is_punct and t.lower_ not in
                                            ("please", "pls", "kindly", "just", "so", "and", "also")), 0))


def _pronoun_subject(subj: Any, reporter: Any, about_topic: bool, negated: bool) -> Verdict:
    """"I / we" is the speaker (unless someone else reports it), "you" never, "he / she" only as
    the named person a reporting verb names, "it / this" the thing under discussion."""
    low = subj.lower_
    if low in _FIRST:
        if reporter is not None:
            rs = _subject_child(reporter)
            if rs is not None and rs.lower_ not in _FIRST:  # "Tom / everyone / my mom thinks I live in X"
                return Verdict(False, why="reported by someone else")
        return Verdict(True, "@speaker", negated)
    if low in _SECOND:
        return Verdict(False, why="second person")
    if about_topic and low in ("it", "this", "that"):
        return Verdict(True, None, negated)
    if reporter is not None:  # "Tom said he moved to Denver"
        rs = _subject_child(reporter)
        name = _person_of(rs) if rs is not None else None
        if name and low in ("he", "she"):
            return Verdict(True, name, negated)
    return Verdict(False, why="he/she" if low in ("he", "she") else "unresolved pronoun")


def _named_subject(subj: Any, value: Any, about_topic: bool, negated: bool) -> Verdict:
    """A noun subject: a person's name, "my X" (the speaker's), "Priya's X" (hers), a relative
    ("my wife …": someone else unless named), "your / his X" (someone else's)."""
    name = _name_of(subj)
    if name and not (value.start <= subj.i < value.end):
        return Verdict(True, name, negated)
    poss = next((c for c in subj.children if c.dep_ == "poss"), None)
    if poss is not None and poss.pos_ == "NOUN" and poss.lower_ not in PERSON_NOUNS and any(
            c.dep_ == "poss" and c.lower_ in ("my", "our") for c in poss.children):
        return Verdict(True, "@speaker", negated)  # "my dog's name is Luna"
    if poss is not None and poss.lower_ not in _FIRST | {"my", "our", "your", "his", "her", "their", "its"}:
        name = _name_of(poss)  # "Priya's office is remote"
        return Verdict(True, name, negated) if name else Verdict(False, why="someone else's")
    if subj.lower_ in PERSON_NOUNS or (subj.tag_ in ("NNS", "NN") and poss is not None and subj.lower_ in PERSON_NOUNS):
        appos = next((c for c in subj.children if c.dep_ == "appos"), None)
        name = _person_of(appos) if appos is not None else None
        return Verdict(True, name, negated) if name else Verdict(False, why="someone else")
    if poss is not None and poss.lower_ in ("your", "his", "her", "their", "its"):
        if about_topic and poss.lower_ == "its":
            return Verdict(True, None, negated)
        return Verdict(False, why="someone else's")
    if poss is not None and poss.lower_ in ("my", "our"):
        return Verdict(True, "@speaker", negated)
    if not about_topic and (subj.lower_ in SOMEONE or subj.lower_.removesuffix("s") in SOMEONE):
        return Verdict(False, why="someone else")  # "the new guy on my team is vegan", "someone …"
    return Verdict(True, None, negated)


# -- Chinese ------------------------------------------------------------------------------------

ZH_PLACES = frozenset(
    "北京 上海 天津 重庆 广州 深圳 杭州 南京 苏州 成都 武汉 西安 长沙 郑州 青岛 大连 厦门 宁波 无锡 合肥 福州 济南 沈阳 哈尔滨 长春 "
    "昆明 贵阳 南宁 南昌 太原 石家庄 兰州 乌鲁木齐 呼和浩特 拉萨 银川 西宁 海口 三亚 珠海 东莞 佛山 温州 常州 徐州 烟台 "
    "香港 澳门 台北 海城 国外 外地 老家 家里 本地 当地 北方 南方 美国 日本 英国 德国 法国 新加坡".split())
_ZH_OTHER = re.compile(r"(?:你们|您|你|他们|她们|他|她|人家|别人)(?!好)")  # not a greeting: 您好
_ZH_KIN = re.compile(r"我(?:的|们)?(?:老婆|妻子|太太|媳妇|老公|丈夫|先生|爱人|男朋友|女朋友|男友|女友|对象|爸爸|妈妈|爸|妈|父亲|母亲|"
                     r"父母|儿子|女儿|孩子|哥哥|姐姐|弟弟|妹妹|哥|姐|弟|妹|朋友|同事|室友|邻居|老板|领导|同学|家人|亲戚|舅舅|"
                     r"阿姨|叔叔|爷爷|奶奶|外婆|外公|表哥|表姐|堂哥|闺蜜|经理|客户)")
_ZH_HYPO = re.compile(r"听说|据说|听人说|梦见|梦到|做梦|大概|估计|八成|好像|似乎|考虑|可能|也许|如果|要是|假如|假设|或许|说不定|打算|犹豫|还没决定|没决定|不确定|不知道|想不想|"
                      r"会不会|计划|准备考虑|想着|梦想|希望|但愿|万一|的话|还在想|在想|纠结|千万别|别把|不要把|没说要|没说过|谁说")
_ZH_WANT = re.compile(r"想(?!起|到|念)|要不")
_ZH_NEG = re.compile(r"(?:不|没|没有|别|未|并非|不是)$")


def judge_zh(sentence: str, cue: int, a: int, b: int, topic: str, about_topic: bool, bounded: bool) -> Verdict:
    """Gate one Chinese match: ``cue`` is where the pattern starts, ``a:b`` the value, all in
    ``sentence``."""
    if topic in ("trip_city", "home_city") and is_not_a_city(sentence[a:b]):
        return Verdict(False, why="a country or region, not a city")
    if is_question(sentence, "zh"):
        return Verdict(False, why="question")
    before = sentence[:cue]
    clause_start = max(before.rfind(c) for c in "，,；;：:") + 1
    clause_before = before[clause_start:]
    upto = sentence[:b]
    if _ZH_HYPO.search(upto) or (topic not in PREFERENCE_TOPICS and _ZH_WANT.search(upto)):
        return Verdict(False, why="hypothetical")
    if _PAST_STATE.search(sentence):
        return Verdict(False, why="a past state")
    if topic == "employer" and sentence[a:b] in ZH_PLACES:
        return Verdict(False, why="a city is not an employer")
    after = re.split(r"[，,；;。！!？?]", sentence[b:b + 3])[0]  # a negation after the value, in its clause
    after = re.sub(r"^我?不[能敢]", "", sentence[b:b + 4]) if topic == "allergy" and re.match(r"我?不[能敢]", sentence[b:]) else after
    negated = bool(_ZH_NEG.search(clause_before.rstrip("了都也还就"))) or bool(re.search(r"不|没", after[:2]))
    if topic == "allergy" and re.search(r"不|没", after):
        negated = True
    if re.search(r"(?:不|没)$", sentence[a:b]):
        return Verdict(False, why="negated")
    if topic in PLAN_TOPICS and not bounded and _PAST_TIME.search(sentence):
        return Verdict(False, why="past episode")
    if about_topic:
        return Verdict(True, None, negated)
    last_me = before.rfind("我")
    other = [mm for mm in _ZH_OTHER.finditer(before)]
    if other and other[-1].start() > last_me:
        return Verdict(False, why="someone else")
    kin = [mm for mm in _ZH_KIN.finditer(before)]
    if kin and kin[-1].start() >= last_me:
        return Verdict(False, why="someone else")
    return Verdict(True, "@speaker" if last_me >= 0 else None, negated)
