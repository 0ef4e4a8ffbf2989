"""The rule extractor's matching layer: vocabulary patterns over one sentence, cleaned values,
and the precision gates' verdict on each match (whom it is about, whether it is asserted).

No spaCy loading and no events here: :mod:`.statements` turns verdicts into events and
:mod:`.rules` runs the pipelines. The cue patterns (``CANCEL``, ``REVOKE_VERB``, ``ONE_OFF``…),
:class:`Found`, :class:`Matcher` and :func:`is_text` are public names of this module because those
two layers read them; they are the extractor's internals, not part of graphmem's API (not in
``graphmem.__all__`` nor in this module's ``__all__``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Sequence

from ..core.models import MessageEvent
from ..core.text import HAN
from .gates import ZH_PLACES, Verdict, is_question, judge_en
from .zh_gates import judge_zh_more
from .zh_places import is_city_zh
from .zh_relay import judge_relayed
from .zh_values import drop_moved_from
from .en_lists import list_item
from .values import clean
from .vocabulary import TopicRules, Vocabulary

__all__ = ["PriorFact"]

CANDIDATE_BELOW = 0.8
OPEN_CUE_EN = re.compile(r"\bmy\b|\bour\b|\bwork(?:s|ing)? as\b|\bI'?m an?\b|\bI am an?\b|\bI was an?\b|\bstudy(?:ing)? at\b|"
                         r"\b(?:named|called)\b|\b(?:I|we) (?:have|'ve got|got|own|adopted)\b|\b(?:I've|we've) got\b|\bstudy(?:ing)?\b|\bI (?:love|enjoy|like|adore)\b|\bfan of\b|\binto\b|\bpassionate about\b|"
                         r"\bmajoring\b", re.I)
OPEN_CUE_ZH = re.compile(r"我的|我是|上学|读书|读研|读博|念书|上大学|我(?:们)?(?:家)?(?:有|养了)|我(?:老公|丈夫|老婆|妻子|太太|儿子|女儿|妈妈|爸爸|哥哥|姐姐|弟弟|妹妹)|我(?:在)?学")
EPOCH = datetime(2000, 1, 1, tzinfo=timezone.utc)  # a reference time for cue checks that ignore dates
_HAN_CHAR = re.compile(f"[{HAN}]")  # graphmem.core.text: one definition of Chinese characters
FIRST_PERSON_EN = re.compile(r"\b(?:I|I'm|I've|I'll|I'd|me|my|mine|myself)\b")
FIRST_PERSON_ZH = re.compile(r"我")
ONE_OFF = re.compile(r"\b(?:this time|for this task|just this once|for this one|in this task|(?:this|the current) "
                     r"(?:report|document|doc|email|e-mail|reply|answer|summary|memo|draft|ticket|task))\b|"
                     r"这次|本次|这一次|此次|这份|这篇|这封|本报告|这个报告", re.I)
STANDING = re.compile(r"\b(?:from now on|always|going forward|in future|in the future)\b|以后|今后|往后|从现在起", re.I)
TEMPORARY = re.compile(r"\b(?:temporarily|temporary|for now|for the time being|for a while|"
                       r"(?:just |only )?for (?:today|tonight|this week|this weekend|this month)|"
                       r"(?:today|tonight|this week|this weekend|this month) only|only (?:today|tonight|this week)|"
                       r"all week|the whole week|all day today)\b|"
                       r"暂时|临时|暂且|暂住|借住|先用|这两天|这几天|这阵子|(?:跑|用|试|持续|为期)[两三四五六七]天", re.I)
REVOKE_STRONG = re.compile(r"\b(?:no longer|not any ?more|withdraw|withdrawn|unset)\b|不再|撤回|撤销|"
                           r"(?:现在|已经)?不(?:吃|住|在|用|做|是)[\u4e00-\u9fff]{0,3}[了啦]|不再?过敏了", re.I)
REVOKE_VERB = re.compile(r"\b(?:drop|dropped|remove|removed|forget|delete|deleted|stop using|clear|cleared)\b|"
                         r"删掉|删除|去掉|忘掉|忘记|不用了", re.I)
NEGATED_NOT_ANYMORE = re.compile(r"(?:\bnot\b|n't\b).*\b(?:any ?more|any longer)\b", re.I)
CANCEL = re.compile(r"\b(?:cancel|cancell?ed|called off|call off|calling off|not going|won't go|scrapped|"
                    r"postponed indefinitely|(?:is|are|'s) off|fell through|falls through|no longer happening)\b|"
                    r"取消|不去了|泡汤|作废|黄了|不出差了|(?:酒店|房间?|机票|车票)(?:已经)?退(?:掉)?了", re.I)
CORRECTION = re.compile(r"^\s*(?:sorry|correction|i mean|i meant|my mistake|my bad|oops|no,? wait|wait,)\b|"
                        r"\b(?:i meant|correction:|it was actually|not .{1,20} but|typo|typos|mistyped|misspoke|"
                        r"i misspoke|wrong number|i got (?:that|it) wrong|scratch that)\b|"
                        r"不对|说错了|更正|纠正|搞错了|写错了|打错了|打错字|笔误|口误|记错了|弄错了|看错了",
                        re.I)
# A value named only to be rejected ("prod is 6110, not 6100", "不是6100，是6110"): never the new value.
REJECTED_BEFORE = re.compile(r"(?:\bnot|\binstead of|\brather than|\bno longer|不是对?|而不是|并非)\s*$", re.I)
CHANGE_WORDS = re.compile(r"\b(?:now|since|from|starting|anymore|these days|nowadays)\b|现在|起|开始", re.I)
_ADDRESS_HINT = re.compile(r"(?:\b(?:Rd|Road|St|Street|Ave|Avenue|Lane|Ln|Blvd|Boulevard|Drive|Dr|Way|Place|Pl|Square|Sq|Court|Ct|Crescent|Close|Terrace|"
                           r"Highway|Hwy|Parkway|Row|Alley|Gardens)\b\.?|"
                           r"路|街|大道|巷|胡同|弄|号|小区)", re.I)
_HOTEL_HINT = re.compile(r"(?:\b(?:Hotel|Inn|Hostel|Resort|Suites|Motel)\b|酒店|宾馆|饭店|旅馆|旅店|民宿|客栈)", re.I)
_NOT_A_PLACE = {"the", "a", "an", "it", "this", "that", "there", "here", "my", "our", "your", "his", "her", "their",
                "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
                "nov", "dec", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
# Where one clause of a sentence ends and the next begins, for per-clause environments.
CLAUSE_BREAK = re.compile(r"[,;，；、\n()（）]|\s[-–—/|]\s|\b(?:but|while|whereas)\b|[.!?](?=\s)|"
                          r"\s(?:and|so)\s(?=(?:from|starting|since|then|I|I'm|I'll|we|we're|we'll)\b)", re.I)
_NOT_A_CITY_ZH = re.compile(r"宿舍|公司|学校|单位|家|楼|附近|这边|那边|对面|隔壁|酒店|宾馆|医院|小区|房子|朋友|亲戚|(?:区|村|苑|园|观)$")
MOVE_WORDS = re.compile(r"\b(?:move|moved|moving|relocation|relocated)\b|搬家|搬", re.I)


@dataclass(frozen=True)
class PriorFact:
    """A recent assertion the store already has; corrections and cancellations refer to these."""

    uid: str
    subject: str
    topic: str
    env: str | None
    value: str
    valid_from: datetime
    valid_to: datetime | None
    author: str | None
    seq: int

    def replaced_by(self, value: str, source: str, evidence: str) -> list[dict[str, Any]]:
        """A correction of this held fact: its retract, and a set of ``value`` in its place — the same
        subject, topic, environment and dates, since a correction changes what was said, not when."""
        event: dict[str, Any] = {"op": "set", "subject": self.subject, "topic": self.topic, "value": value,
                                 "source": source, "valid_from": self.valid_from.isoformat(), "confidence": 0.85,
                                 "evidence": evidence}
        if self.env:
            event["env"] = self.env
        if self.valid_to is not None:
            event["valid_to"] = self.valid_to.isoformat()
        return [{"op": "retract", "fact": self.uid, "source": source}, event]


@dataclass
class Found:
    topic: TopicRules
    value: str
    span: tuple[int, int]
    confidence: float
    cue: int = 0  # where the pattern's match starts (the cue word), in the sentence
    shape: str | None = None
    env: str | None = None  # an env-scoped value's environment, read per clause (Matcher._per_clause)
    revokes: bool = False  # from a pattern that ends the value ("I left Initech")


def trim_place(value: str) -> str:
    """Drop trailing words that are dates, not names ("Suzhou on March" → "Suzhou")."""
    words = value.split()
    while len(words) > 1 and (words[-1].lower().rstrip(".") in _NOT_A_PLACE or words[-1].lower() in ("on", "in", "at", "am")):
        words.pop()
    return " ".join(words)


def language_of(text: str) -> str:
    """'zh' when Han characters are at least a fifth of the letters, else 'en'. Without one Han
    character that is 'en' whatever the letters, so the letters (a loop in Python, run on every
    message of an import) are only counted when there is one."""
    if _HAN_CHAR.search(text) is None:
        return "en"
    cjk = len(_HAN_CHAR.findall(text))
    letters = sum(1 for c in text if c.isalpha())
    return "zh" if letters and cjk / letters >= 0.2 else "en"


def is_text(text: str) -> bool:
    """Text, not binary: under a tenth of its characters are control, surrogate, private-use or
    unassigned (line breaks and tabs allowed). A printable string (``str.isprintable``, in C) has
    none of them, so only the others are counted character by character."""
    if not text.strip():
        return False
    if text.isprintable():
        return True
    control = sum(1 for c in text if unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") and c not in "\n\r\t")
    return control / len(text) < 0.1



class Matcher:
    """Patterns → gated matches for one sentence. Needs ``self.vocabulary``."""

    vocabulary: Vocabulary

    def _env(self, sentence: str) -> str | None:
        """The environment named first in the sentence (one search over all environment words)."""
        found = self._env_at(sentence)
        return found[0][1] if found else None

    def _any_pattern(self, lang: str) -> "re.Pattern[str] | None":
        """All of a language's vocabulary patterns as one alternation (named groups dropped): one
        search tells whether any of them can match, instead of one search per pattern."""
        cache: dict[str, re.Pattern[str] | None] = self.__dict__.setdefault("_any_rx", {})
        if lang not in cache:
            parts = [re.sub(r"\(\?P<\w+>", "(?:", p.regex.pattern) for t in self.vocabulary.topics.values()
                     for p in t.patterns.get(lang, [])]
            flags = {p.regex.flags for t in self.vocabulary.topics.values() for p in t.patterns.get(lang, [])}
            try:
                cache[lang] = re.compile("|".join(f"(?:{x})" for x in parts), flags.pop()) \
                    if parts and len(flags) == 1 else None
            except re.error:  # a user's pattern that does not combine: search them one by one
                cache[lang] = None
        return cache[lang]

    def _facts(self, sentence: str, lang: str, env: str | None) -> list[tuple[Found, str | None]]:
        variants = [sentence]
        if sentence[:1].isupper():
            variants.append(sentence[:1].lower() + sentence[1:])
        combined = self._any_pattern(lang)
        if combined is not None and not any(combined.search(v) for v in variants):
            return []
        env = env if env is not None else self._env(sentence)
        found: list[Found] = []
        for topic in self.vocabulary.topics.values():
            for p in topic.patterns.get(lang, []):
                if p.needs_env and env is None:
                    continue
                for variant in variants:
                    for m in p.regex.finditer(variant):
                        raw = m.group("value")
                        value = clean(raw, lang, p.shape, topic.cardinality == "many")
                        if lang == "en":
                            value = re.sub(r"^the\s+", "", value, flags=re.I)
                        if p.shape in ("place", "gpe"):
                            value = trim_place(value)
                        if not value or not self._shape_ok(p.shape, value):
                            continue
                        at = m.start("value") + raw.find(value)
                        for part, pos in self._items(value, lang) if topic.cardinality == "many" else [(value, 0)]:
                            found.append(Found(topic, part, (at + pos, at + pos + len(part)), p.confidence,
                                                m.start(), p.shape, None, p.revokes))
        # "prod is 6110, not 6100": of two values for one topic, the one after "not" is the rejected one.
        rejected = [f for f in found if REJECTED_BEFORE.search(variants[0][:f.span[0]])
                    and any(o.topic.name == f.topic.name and o is not f and not REJECTED_BEFORE.search(
                        variants[0][:o.span[0]]) for o in found)]
        found = [f for f in found if f not in rejected]
        if lang == "zh":
            found = drop_moved_from(sentence, found)
        if any(f.topic.env_scoped for f in found):
            found = self._per_clause(sentence, found, env)
            return [(f, f.env if f.topic.env_scoped else None) for f in self._dedupe(found)]
        return [(f, env if f.topic.env_scoped else None) for f in self._dedupe(found)]

    def _env_at(self, text: str) -> list[tuple[int, str]]:
        """Every environment word of ``text`` with its position, in order (the longest word where
        two start at one place: "test environment" before "test")."""
        rx = self._env_words_rx()
        words: dict[str, str] = self.__dict__["_env_rx"]["map"]
        return [(m.start(), words[m.group()]) for m in rx.finditer(text.lower())]

    def _env_words_rx(self) -> "re.Pattern[str]":
        cache: dict[str, re.Pattern[str]] = self.__dict__.setdefault("_env_rx", {})
        if "rx" not in cache:
            envs: dict[str, str] = {}
            for env, ws in self.vocabulary.environments.items():
                for w in ws:
                    envs.setdefault(w.lower(), env)  # the first environment that lists a word keeps it
            cache["map"] = envs  # type: ignore[assignment]
            words = sorted(envs, key=len, reverse=True)
            cache["rx"] = re.compile("|".join(re.escape(w) if _HAN_CHAR.search(w) else r"\b" + re.escape(w) + r"\b"
                                              for w in words))
        return cache["rx"]

    def _per_clause(self, sentence: str, found: list[Found], env: str | None) -> list[Found]:
        """Environments per clause: an env-scoped value takes the environment named in its own
        clause ("prod listens on 8080, in staging we use 8443" → 8080 prod, 8443 staging), else the
        sentence's. A clause that names another environment and gives a bare number of the same
        shape with no cue of its own repeats the slot by ellipsis ("生产环境端口8500，测试环境8600"):
        it draws that number for the same topic and that environment."""
        bounds = [0] + [m.end() for m in CLAUSE_BREAK.finditer(sentence)] + [len(sentence) + 1]
        clauses = list(zip(bounds, bounds[1:]))
        envs = self._env_at(sentence)

        def clause_of(pos: int) -> tuple[int, int]:
            return next(((a, b) for a, b in clauses if a <= pos < b), clauses[-1])

        def env_of(a: int, b: int, pos: int) -> str | None:
            inside = [(p, e) for p, e in envs if a <= p < b]
            before = [e for p, e in inside if p <= pos]
            return before[-1] if before else (inside[0][1] if inside else None)

        out: list[Found] = []
        for f in found:
            if not f.topic.env_scoped:
                out.append(f)
                continue
            a, b = clause_of(f.span[0])
            here = env_of(a, b, f.span[0])
            if here is None and len({e for _, e in envs}) > 1:
                # Several environments in the sentence, none in this clause: the nearest one before it.
                before = [e for p, e in envs if p < f.span[0]]
                here = before[-1] if before else None
            out.append(Found(f.topic, f.value, f.span, f.confidence, f.cue, f.shape, here or env, f.revokes))
        scoped = [f for f in out if f.topic.env_scoped]
        topics = {f.topic.name for f in scoped}
        if len(topics) == 1 and all(f.value.isdigit() for f in scoped):
            topic, conf = scoped[0].topic, min(f.confidence for f in scoped)
            nouns = [w.lower() for ws in topic.nouns.values() for w in ws]
            for a, b in clauses:
                if any(a <= f.span[0] < b for f in out):
                    continue
                here = env_of(a, b, b)
                numbers = list(re.finditer(r"(?<![A-Za-z0-9_.:/-])\d{2,5}(?![A-Za-z0-9_.:/%-])", sentence[a:b]))
                if here is None or len(numbers) != 1:
                    continue
                # Only an ellipsis: the clause is the environment and the number, with at most a
                # copula or the topic's noun ("测试环境8600", "test is 8600") — "test has 12 nodes" is not.
                rest = sentence[a:b][:numbers[0].start()] + sentence[a:b][numbers[0].end():]
                rest = self._env_words_rx().sub(" ", rest.lower())
                for w in nouns:
                    rest = rest.replace(w, " ")
                if re.sub(r"[\s,;.:=/|!，；。：！、]|\b(?:is|on|at|uses?|and|in|the|we)\b|\benv(?:ironment)?\b|环境|是|为|用|在|和|的", "", rest):
                    continue
                n = numbers[0]
                out.append(Found(topic, n.group(), (a + n.start(), a + n.end()), conf, a + n.start(), None, here))
        return out

    @staticmethod
    def _items(value: str, lang: str) -> list[tuple[str, int]]:
        """A list value split into its items ("penicillin and latex", "海鲜和花粉"), with offsets."""
        sep = re.compile(r"\s*(?:,\s*and|,|\band\b|\bor\b|&)\s*" if lang == "en" else r"和|、|及|以及|与|跟|，|,")
        out, pos = [], 0
        for m in list(sep.finditer(value)) + [None]:
            end = m.start() if m else len(value)
            piece = value[pos:end]
            item = clean(piece, lang, "item", True)
            if item and lang == "en":
                item = list_item(item) or ""  # "penicillin after all, the test came back clean": a clause follows
                if not item:
                    break
            if item:
                out.append((item, pos + piece.find(item)))
            pos = m.end() if m else pos
        return out or [(value, 0)]

    @staticmethod
    def _shape_ok(shape: str | None, value: str) -> bool:
        if shape == "address":
            return bool(_ADDRESS_HINT.search(value))
        if shape == "gpe" and _HAN_CHAR.search(value):
            return value in ZH_PLACES or is_city_zh(value) or value.endswith(("市", "县", "镇"))
        if shape == "place" and _NOT_A_CITY_ZH.search(value) and not (value in ZH_PLACES or is_city_zh(value)):
            return False  # "住在公司宿舍": a dormitory, a company, a home is no city
        if shape in ("place", "gpe", "org"):
            first = value.split()[0].lower() if value.split() else ""
            return (not _ADDRESS_HINT.search(value) and not _HOTEL_HINT.search(value)
                    and first not in _NOT_A_PLACE and not value.isdigit())
        return True

    @staticmethod
    def _dedupe(found: list[Found]) -> list[Found]:
        """One value per topic (the longest, earliest), and one topic per stretch of text."""
        found.sort(key=lambda f: (f.span[0], -(f.span[1] - f.span[0])))
        out: list[Found] = []
        for f in found:
            clash = next((o for o in out if o.topic.name == f.topic.name and o.topic.cardinality == "one"
                          and o.env == f.env and o.revokes == f.revokes), None)
            if clash is not None:
                continue
            overlap = next((o for o in out if not (f.span[1] <= o.span[0] or f.span[0] >= o.span[1])
                            and o.topic.name != f.topic.name), None)
            if overlap is not None and overlap.topic.name in ("trip_lodging",) and f.topic.name.startswith("home_"):
                continue
            if overlap is not None and f.topic.name == "trip_lodging" and overlap.topic.name.startswith("home_"):
                out.remove(overlap)
            if any(o.topic.name == f.topic.name and o.value == f.value for o in out):
                continue
            out.append(f)
        return out

    def _subject(self, topic: TopicRules, sentence: str, lang: str, m: MessageEvent, span: Any = None,
                 verdict: Verdict | None = None) -> str:
        if topic.subject == "about" and m.about:
            return m.about
        if verdict is not None and verdict.subject:
            return m.speaker if verdict.subject == "@speaker" else verdict.subject
        first = (FIRST_PERSON_ZH if lang == "zh" else FIRST_PERSON_EN).search(sentence)
        if first:
            return m.speaker
        if m.about:
            return m.about
        return m.speaker

    @staticmethod
    def _resolve(verdict: Verdict, names: Sequence[str]) -> Verdict:
        """"He"/"she" is the one person named earlier in the message — when exactly one was."""
        if verdict.why == "he/she" and len(names) == 1:
            return Verdict(True, names[0], verdict.negated)
        return verdict

    def _judge(self, f: Found, sentence: str, offset: int, lang: str, span: Any, bounded: bool,
               m: MessageEvent | None = None) -> Verdict:
        about = f.topic.subject == "about"
        if lang == "zh" and m is not None and m.drawn_as != "stated" and not about:
            return judge_relayed(sentence, f.cue, f.span[0], f.span[1], f.topic.name, bounded, m.about)
        if lang == "zh":
            return judge_zh_more(sentence, f.cue, f.span[0], f.span[1], f.topic.name, about, bounded)
        if span is None or not span.doc.has_annotation("DEP"):
            return Verdict(not is_question(sentence, lang))
        nouns = frozenset(w.lower() for w in f.topic.nouns.get("en", []))
        verdict = judge_en(span, offset + f.span[0], offset + f.span[1], f.topic.name, about, bounded, nouns, f.shape,
                           ending=f.revokes)
        if verdict.subject and any(verdict.subject == w.lower() for ws in self.vocabulary.environments.values()
                                   for w in ws):
            # "prod listens on 8080": an environment is where the value holds, not whom it is about.
            return Verdict(verdict.ok, None, verdict.negated, verdict.why)
        return verdict
