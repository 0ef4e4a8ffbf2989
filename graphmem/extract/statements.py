"""The rule extractor's statement layer: what a sentence's gated matches mean as events.

A plain statement becomes a ``set``; a negation of a held value, a revocation, a correction or a
cancellation use the speaker's recent facts (:class:`PriorFact`) to ``revoke`` or ``retract``;
temporary and one-off wording bound the ``set`` or make it a candidate; open-vocabulary shapes
add L2 candidates. docs/extraction.md has the full table.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Iterable, Sequence

from ..core.models import MessageEvent
from .base import (CANDIDATE_BELOW, PriorFact, CANCEL, CHANGE_WORDS, CORRECTION, Found, Matcher, MOVE_WORDS,
                   REJECTED_BEFORE,
                   NEGATED_NOT_ANYMORE, ONE_OFF, REVOKE_STRONG, REVOKE_VERB,
                   STANDING, TEMPORARY)
from .corrections import swapped
from .dates import DateSpan
from .en_corrections import negated_in_clause
from .zh_dates import find_dates  # dates.find_dates and the Chinese spans it reads piece by piece
from .gates import Verdict, is_question
from .statements_open import open_statements
from .quotes import mentions_old_document
from .temporal import dates_of, implied_end, temporary_here
from .vocabulary import TopicRules

__all__: list[str] = []


def _withdraws(span: Any) -> bool:
    """Does the speaker withdraw something of their own here? A first-person subject (or "my /
    our" on what is withdrawn) and no "don't …" reminder: "I'm no longer going on the trip",
    "drop my trip", not "don't forget to book your trip" or "you could cancel the travel"."""
    if any(t.dep_ in ("nsubj", "nsubjpass") and t.lower_ in ("you", "u") for t in span):
        return False
    if any(t.dep_ == "neg" and t.head.lower_ in ("forget", "drop", "remove", "delete", "clear") for t in span):
        return False
    return any((t.dep_ in ("nsubj", "nsubjpass") and t.lower_ in ("i", "we")) or
               (t.dep_ == "poss" and t.lower_ in ("my", "our")) for t in span) or (
        any((t.tag_ == "VB" or t.i == span.start) and t.dep_ in ("ROOT", "conj", "ccomp", "parataxis") and not any(
            c.dep_ in ("nsubj", "aux") for c in t.children) for t in span))  # "…, drop the port." (an instruction)


class Statements(Matcher):
    """Gated matches → events, sentence by sentence."""

    def _revoke_cue(self, sentence: str, lang: str, span: Any) -> bool:
        """A withdrawal: "no longer", "not … any more", 不再, 撤回; or a removal verb whose object
        names a topic ("drop the port", "删掉端口") — not "clear my mind"."""
        if REVOKE_STRONG.search(sentence) or NEGATED_NOT_ANYMORE.search(sentence):
            return True
        verb = REVOKE_VERB.search(sentence)
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
        """The events one sentence means. In order, the first that applies decides: a
        cancellation of a plan, a revocation, a correction; else its statements (sets, and a
        negation that withdraws a held value)."""
        if is_question(sentence, lang) or mentions_old_document(sentence, m.at):
            return  # a question asserts nothing; an old document's words are not the speaker's now
        dates = find_dates(sentence, m.at)
        kept = [d for d in dates if not REJECTED_BEFORE.search(sentence[:d.span[0]])]
        rejected_date = len(kept) < len(dates) and bool(kept)  # "on March 15, not March 1"
        start, end = self._interval(kept, sentence)
        one_off = bool(ONE_OFF.search(sentence)) and not STANDING.search(sentence)
        authority, session = ("L0", m.session) if (one_off and m.session) else ("L1", None)
        env_here = self._env(sentence)
        raw = self._facts(sentence, lang, env_here)
        ahead = end is not None or (start is not None and start > m.at)  # a dated plan, not an old episode
        judged = self._judged(m, raw, sentence, offset, lang, span, ahead, names, context)
        found = [(f, env) for f, env, v in judged if v.ok]
        verdicts = {id(f): v for f, _, v in judged}
        ending = [(f, env) for f, env in found if f.revokes]
        every = [f for f, _ in found]  # the values of the sentence, endings included: for per-clause dates
        if ending:
            # "I left Initech in March": the value ends (from the date named), nothing is set.
            for f, env in ending:
                own = start if len(every) < 2 else self._interval(dates_of(sentence, kept, every, f), sentence)[0]
                yield from self._ended(m, f, env, sentence, lang, span, verdicts[id(f)], context, own, authority)
            found = [(f, env) for f, env in found if not f.revokes]
            if not found:
                return

        if CANCEL.search(sentence) and all(f.topic.plan for f, _ in found):
            retracts = self._cancellation(m, sentence, lang, context)
            if retracts is not None:
                yield from retracts
                return
        if self._revoke_cue(sentence, lang, span):
            targets = self._revoked(sentence, lang, span, found, verdicts) if not raw or found else []
            yield from (self._revoke(m, sentence, lang, span, topic, value, verdict, authority, session,
                                     env_here, start) for topic, value, verdict in targets)
            if targets or raw:
                return
        if rejected_date or self._correcting(m, sentence, offset, found, context):
            # "I'm not vegetarian, but I'm allergic to nuts" reads like "not X but Y": a negated
            # clause states nothing, the other clause still does.
            kept_found = [(f, env) for f, env in found if lang != "en" or not (
                verdicts[id(f)].negated and negated_in_clause(sentence, f.span[0]))]
            if found and not kept_found:
                return  # only negated values: no correction to make of them
            yield from self._correction(m, sentence, offset, lang, span, kept_found, start, end, context)
            return
        yield from open_statements(self.vocabulary, m, sentence, offset, lang, span, found)
        for f, env in found:
            verdict = verdicts[id(f)]
            if verdict.negated:
                yield from self._withdrawn(m, f, env, sentence, lang, span, verdict, context, start)
                continue
            own_start, own_end = (start, end) if len(every) < 2 else self._interval(
                dates_of(sentence, kept, every, f), sentence)
            yield self._set(m, f, env, sentence, offset, lang, span, own_start, own_end, authority, session,
                            verdict, one_off and not m.session, [g for g, _ in found])

    def _judged(self, m: MessageEvent, raw: list[tuple[Found, str | None]], sentence: str, offset: int, lang: str,
                span: Any, ahead: bool, names: Sequence[str], context: Sequence[PriorFact]
                ) -> list[tuple[Found, str | None, Verdict]]:
        """Each match with the gates' verdict. A value the speaker holds needs no proof that it is an
        organisation ("I'm not with Initech anymore" while the store has Initech), nor does one that
        ends or is withdrawn while the store holds no other value: the clause is judged without the
        shape check (subject, modality and negation still apply)."""
        judged = [(f, env, self._resolve(self._judge(f, sentence, offset, lang, span, ahead, m), names))
                  for f, env in raw]
        withdrawing = any(v.why == "not an organisation" for _, _, v in judged) and self._revoke_cue(sentence, lang, span)
        return [(f, env, self._resolve(self._judge(replace(f, shape=None), sentence, offset, lang, span, ahead, m), names))
                if v.why == "not an organisation" and (self._holds(m, f, context) or (
                    (withdrawing or f.revokes) and not self._holds_other(m, f, context))) else (f, env, v)
                for f, env, v in judged]

    @staticmethod
    def _correcting(m: MessageEvent, sentence: str, offset: int, found: list[tuple[Found, str | None]],
                    context: Sequence[PriorFact]) -> bool:
        """A correction cue ("sorry, …", "typo", 打错了), a held value named after "not" beside a new
        one ("prod is 6110, not 6100"), or an "actually" that is no change."""
        return bool(CORRECTION.search(sentence)) or any(
            g.topic.name == p.topic and g.value.lower() != p.value.lower() and p.subject in (m.speaker, m.about)
            and (at := sentence.lower().find(p.value.lower())) >= 0 and REJECTED_BEFORE.search(sentence[:at])
            for g, _ in found for p in context) or bool(list(swapped(m, sentence, offset, context, True))) or (
            re.match(r"^\s*actually\b", sentence, re.I) is not None and not CHANGE_WORDS.search(sentence))

    def _cancellation(self, m: MessageEvent, sentence: str, lang: str,
                      context: Sequence[PriorFact]) -> list[dict[str, Any]] | None:
        """"The trip is cancelled": a retract of the latest fact on each topic of the plans the
        sentence names (by a noun or by a held value); None when it names no plan."""
        plan_topics = [t for t in self.vocabulary.topics.values() if t.plan]
        plans = {t.plan for t in plan_topics if self._names(t, sentence, lang)}
        plans |= {self.vocabulary.topics[p.topic].plan for p in context
                  if p.topic in self.vocabulary.topics and self.vocabulary.topics[p.topic].plan
                  and p.value and p.value.lower() in sentence.lower()}
        if not plans:
            return None
        return [{"op": "retract", "fact": prior.uid, "source": m.id}
                for prior in self._latest(context, m, lambda p: self.vocabulary.topics.get(p.topic) is not None
                                          and self.vocabulary.topics[p.topic].plan in plans, all_topics=True)]

    def _revoked(self, sentence: str, lang: str, span: Any, found: list[tuple[Found, str | None]],
                 verdicts: dict[int, Verdict]) -> list[tuple[TopicRules, str | None, Any]]:
        """What a withdrawal withdraws: each asserted match (its value, on a many-valued topic) and
        each topic the sentence names by a noun — the nouns only when the speaker withdraws
        something of their own, not advice ("don't forget to…", "you could drop…")."""
        named = [t for t in self.vocabulary.topics.values() if self._names(t, sentence, lang)]
        by_value = [f for f, _ in found]
        targets: list[tuple[TopicRules, str | None, Any]] = [
            (f.topic, f.value if f.topic.cardinality == "many" else None, verdicts[id(f)]) for f in by_value]
        if lang == "en" and span is not None and span.doc.has_annotation("DEP") and not _withdraws(span):
            named = []
        return targets + [(t, None, None) for t in named if t.name not in {f.topic.name for f in by_value}]

    def _revoke(self, m: MessageEvent, sentence: str, lang: str, span: Any, topic: TopicRules, value: str | None,
                verdict: Any, authority: str, session: str | None, env_here: str | None,
                start: datetime | None) -> dict[str, Any]:
        """One topic's ``revoke`` (its value on a many-valued topic), effective from the sentence's date."""
        event: dict[str, Any] = {"op": "revoke", "subject": self._subject(topic, sentence, lang, m, span, verdict),
                                 "topic": topic.name, "authority": authority, "source": m.id}
        if value is not None:
            event["value"] = value
        if topic.env_scoped and env_here:
            event["env"] = env_here
        if session:
            event["session"] = session
        if start is not None:
            event["effective"] = start.isoformat()
        return event

    def _holds_other(self, m: MessageEvent, f: Found, context: Sequence[PriorFact]) -> bool:
        """Does the speaker hold another value of this topic (so "I left X" is about an older one)?"""
        return any(p.subject in (m.speaker, m.about) and p.topic == f.topic.name and p.value.lower() != f.value.lower()
                   for p in context)

    def _holds(self, m: MessageEvent, f: Found, context: Sequence[PriorFact]) -> bool:
        return any(p.subject in (m.speaker, m.about) and p.topic == f.topic.name and p.value.lower() == f.value.lower()
                   for p in context)

    def _ended(self, m: MessageEvent, f: Found, env: str | None, sentence: str, lang: str, span: Any,
               verdict: Verdict, context: Sequence[PriorFact], start: datetime | None,
               authority: str) -> Iterable[dict[str, Any]]:
        """A value the speaker says ended ("I left Initech", "I quit Globex in March"): a revoke of
        it, effective from the date named — unless the store holds another value for that topic
        (then "left X" is about an older one, and the current value stays)."""
        if verdict.negated:
            return
        subject = self._subject(f.topic, sentence, lang, m, span, verdict)
        held = [p for p in context if p.subject == subject and p.topic == f.topic.name and (p.env or None) == env]
        if held and not any(p.value.lower() == f.value.lower() for p in held):
            return
        event: dict[str, Any] = {"op": "revoke", "subject": subject, "topic": f.topic.name, "authority": authority,
                                 "source": m.id}
        if f.topic.cardinality == "many":
            event["value"] = f.value
        if env:
            event["env"] = env
        if start is not None:
            event["effective"] = start.isoformat()
        yield event

    def _withdrawn(self, m: MessageEvent, f: Found, env: str | None, sentence: str, lang: str, span: Any,
                   verdict: Verdict, context: Sequence[PriorFact],
                   start: datetime | None = None) -> Iterable[dict[str, Any]]:
        """"I'm not vegetarian" withdraws a value only if the speaker holds it: a revoke of it."""
        subject = self._subject(f.topic, sentence, lang, m, span, verdict)
        held = [p for p in context if p.subject == subject and p.topic == f.topic.name
                and p.value.lower() == f.value.lower() and (p.env or None) == env]
        if held:
            event: dict[str, Any] = {"op": "revoke", "subject": subject, "topic": f.topic.name, "source": m.id}
            if f.topic.cardinality == "many":
                event["value"] = held[0].value
            if env:
                event["env"] = env
            if start is not None:
                event["effective"] = start.isoformat()  # "…, left last Friday"
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
            elif d.role in ("until", "end"):
                end = d.start + timedelta(days=1 if d.role == "until" else 0)  # "until": the day included
            elif start is None:
                start = d.start
        if end is not None and start is not None and end <= start:
            end = None
        return start, end

    def _set(self, m: MessageEvent, f: Found, env: str | None, sentence: str, offset: int, lang: str, span: Any,
             start: datetime | None, end: datetime | None, authority: str, session: str | None,
             verdict: Verdict | None = None, unscoped_one_off: bool = False,
             found: list[Found] | None = None) -> dict[str, Any]:
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
        if end is None and TEMPORARY.search(sentence) and (found is None or temporary_here(sentence, lang, f, found)):
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

    def _correction(self, m: MessageEvent, sentence: str, offset: int, lang: str, span: Any, found: list[Any],
                    start: datetime | None, end: datetime | None, context: Sequence[PriorFact]) -> Iterable[dict[str, Any]]:
        if found:
            for f, env in found:
                prior = self._latest(context, m, lambda p, t=f.topic.name, e=env: p.topic == t and (p.env or None) == e)
                new_start = start or (prior[0].valid_from if prior else None)
                if prior:
                    yield {"op": "retract", "fact": prior[0].uid, "source": m.id}
                yield self._set(m, f, env, sentence, offset, lang, span, new_start, end, "L1", None)
            return
        found_swap = list(swapped(m, sentence, offset, context))
        if found_swap or start is None:
            yield from found_swap
            return
        # Only a new date: re-date the statement it corrects ("the move was on Feb 25") — and every
        # other fact its message drew with the same date (one message, one ledger entry, one seq:
        # "moving to Seattle on March 1, new address 200 Pine Street" drew two facts of one move).
        named = {t.name for t in self.vocabulary.topics.values() if self._names(t, sentence, lang)}
        if MOVE_WORDS.search(sentence):
            named |= {"home_city", "home_address"}
        prior = self._latest(context, m, lambda p: not named or p.topic in named)
        if not prior:
            return
        p = prior[0]
        same = [q for q in context if q.seq == p.seq and q.uid != p.uid and q.valid_from == p.valid_from
                and q.subject in (m.speaker, m.about)]
        for q in [p] + same:
            yield {"op": "retract", "fact": q.uid, "source": m.id}
            event = {"op": "set", "subject": q.subject, "topic": q.topic, "value": q.value, "source": m.id,
                     "valid_from": start.isoformat(), "confidence": 0.85,
                     "evidence": f"[{offset}:{offset + len(sentence)}] {sentence.strip()}"}
            if q.env:
                event["env"] = q.env
            if q.valid_to is not None and q.valid_to > start:
                event["valid_to"] = q.valid_to.isoformat()
            yield event
