"""An optional model-backed extractor: an OpenAI-compatible chat endpoint with a JSON schema.

For users who run a model (a local server or a hosted one). The model proposes facts; nothing it
says is trusted as is. Every proposal goes through the rule extractor's own checks — the same
functions, not copies (docs/model-extractor.md):

* the topic must be in the vocabulary, the value a substring of the message, cleaned and
  shape-checked as a rule's value is (nothing invented, nothing translated, no trailing noise);
* the sentence holding it must pass the precision gates (not a question, not hearsay, not
  second person, not someone else's, not hypothetical, not negated, not a withdrawal, not an old
  document's words), and the gates, not the model, decide the subject;
* dates come from the sentence as the rules read it: a model's date the sentence does not give
  drops the proposal; "for now" with no end, and a one-off request, make a candidate;
* a message that quotes a document or carries pasted material goes to the rules whole (a model
  never dates a quote, and a paste without a date draws nothing).

What survives is **L2**: a model's reading, never a person's own statement (docs/design.md §5) — a
candidate by default; ``trust="statement"`` makes it a confirmed L2 fact, which still never
overrides what a person stated. An assistant's message (``drawn_as="inferred"``) always gives
candidates. Install with ``pip install graphmem[model]`` (httpx). Never counted in the quality
figures of docs/extraction.md.
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime
from typing import Any, Mapping, Sequence

from ..core.errors import ConfigurationError, ExtractionError
from ..core.models import MessageEvent, parse_event
from .base import CANCEL, ONE_OFF, STANDING, Found, Matcher, trim_place, is_text, language_of
from .dates import find_dates
from .gates import Verdict, is_question
from .quotes import find_quote, mentions_old_document
from .rules import PriorFact, RuleExtractor
from .values import clean

__all__ = ["ModelExtractor", "SCHEMA"]

SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["facts"],
    "properties": {"facts": {"type": "array", "items": {
        "type": "object", "additionalProperties": False,
        "required": ["subject", "topic", "value", "valid_from", "valid_to"],
        "properties": {
            "subject": {"type": "string", "description": "'speaker', 'about', or a person's first name"},
            "topic": {"type": "string"},
            "value": {"type": "string", "description": "copied exactly from the message"},
            "valid_from": {"type": ["string", "null"], "description": "YYYY-MM-DD or null"},
            "valid_to": {"type": ["string", "null"], "description": "YYYY-MM-DD (exclusive) or null"}}}}}}

_PROMPT = ("You extract facts a speaker states about themselves (or about the thing under discussion) "
           "from one chat message. Topics: {topics}. Only declarative statements: no questions, no "
           "hypotheticals, no negations, nothing about the listener, nothing a quoted old document says. "
           "Copy each value exactly from the message. Answer with JSON matching the schema.")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class ModelExtractor:
    """``Extractor`` over an OpenAI-compatible ``/chat/completions`` endpoint, gated like the rules."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None, timeout: float = 30.0,
                 rules: RuleExtractor | None = None, trust: str = "candidate", client: Any = None) -> None:
        if trust not in ("candidate", "statement"):
            raise ConfigurationError("ModelExtractor trust must be 'candidate' or 'statement'")
        if client is None:
            try:
                import httpx
            except ImportError as e:  # pragma: no cover - httpx ships with the dev install
                raise ImportError("the model extractor needs httpx: pip install graphmem[model]") from e
            client = httpx.Client(timeout=timeout)
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model, self.api_key, self.trust = model, api_key, trust
        self.rules = rules or RuleExtractor()
        self._client = client

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, rules: RuleExtractor | None = None) -> "ModelExtractor":
        """Built from ``GRAPHMEM_MODEL_URL`` (the server's OpenAI-compatible base, e.g.
        ``http://127.0.0.1:8080/v1``), ``GRAPHMEM_MODEL`` (the model name the server knows),
        optional ``GRAPHMEM_MODEL_API_KEY``, ``GRAPHMEM_MODEL_TRUST`` (``candidate`` | ``statement``)
        and ``GRAPHMEM_MODEL_TIMEOUT`` (seconds): so a deployment switches extractors without code."""
        env = os.environ if env is None else env
        url, model = env.get("GRAPHMEM_MODEL_URL", "").strip(), env.get("GRAPHMEM_MODEL", "").strip()
        if not url or not model:
            raise ConfigurationError("the model extractor needs GRAPHMEM_MODEL_URL and GRAPHMEM_MODEL "
                                     "(e.g. http://127.0.0.1:8080/v1 and the name your server serves)")
        try:
            timeout = float(env.get("GRAPHMEM_MODEL_TIMEOUT", "30"))
        except ValueError as e:
            raise ConfigurationError("GRAPHMEM_MODEL_TIMEOUT must be a number of seconds") from e
        return cls(url, model, api_key=env.get("GRAPHMEM_MODEL_API_KEY") or None, timeout=timeout, rules=rules,
                   trust=env.get("GRAPHMEM_MODEL_TRUST", "candidate"))

    def _ask(self, message: MessageEvent) -> list[dict[str, Any]]:
        topics = ", ".join(sorted(self.rules.vocabulary.topics))
        body = {"model": self.model, "temperature": 0,
                "messages": [{"role": "system", "content": _PROMPT.format(topics=topics)},
                             {"role": "user", "content": json.dumps(
                                 {"text": message.text, "speaker": message.speaker, "about": message.about,
                                  "message_time": message.at.isoformat()}, ensure_ascii=False)}],
                "response_format": {"type": "json_schema",
                                    "json_schema": {"name": "facts", "schema": SCHEMA, "strict": True}}}
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        try:
            r = self._client.post(self.url, json=body, headers=headers)
            r.raise_for_status()
            content = r.json()["choices"][0]["message"]["content"]
            facts = json.loads(content)["facts"]
        except Exception as e:  # network, HTTP status, or an answer that is not the schema
            raise ExtractionError(f"model extractor: no usable answer from {self.url}: {e}") from e
        if not isinstance(facts, list):
            raise ExtractionError("model extractor: 'facts' is not a list")
        return [f for f in facts if isinstance(f, dict)]

    def extract(self, message: MessageEvent, context: Sequence[PriorFact] = ()) -> list[dict[str, Any]]:
        text = message.text
        if not is_text(text):
            return []
        lang = language_of(text)
        if find_quote(text, lang, message.at) is not None:
            # quotes are dated by the rules, never by a model; pasted material draws nothing
            return self.rules.extract(message, context)
        proposals = self._ask(message)
        sentences = self.rules._sentences(text, lang)
        out: list[dict[str, Any]] = []
        for p in proposals:
            event = self._check(message, p, lang, sentences)
            if event is not None and event not in out:
                out.append(event)
        return out

    def _check(self, m: MessageEvent, p: dict[str, Any], lang: str, sentences: list[tuple[int, str, Any]]
               ) -> dict[str, Any] | None:
        """The proposal as an event, if every gate a rule's match passes lets it through."""
        value, name = str(p.get("value") or "").strip(), str(p.get("topic") or "").strip()
        topic = self.rules.vocabulary.topics.get(name)
        if topic is None or not value or value not in m.text:
            return None
        shapes = {pat.shape for pat in topic.patterns.get(lang, [])} or {None}
        for value, shape in self._precise(value, lang, shapes, topic.cardinality == "many"):
            a = m.text.find(value)
            sent = next(((o, s, sp) for o, s, sp in sentences if o <= a and a + len(value) <= o + len(s)), None)
            if sent is None:
                continue
            offset, sentence, span = sent
            if is_question(sentence, lang) or mentions_old_document(sentence, m.at):
                return None  # a question asserts nothing; an old document's words are not the speaker's now
            if CANCEL.search(sentence) or self.rules._revoke_cue(sentence, lang, span):
                return None  # withdrawals and cancellations need the speaker's held facts: the rules' job
            if lang == "en" and (span is None or not span.doc.has_annotation("DEP")):
                return None  # no parse, no gate: draw nothing
            start, end = self.rules._interval(find_dates(sentence, m.at), sentence)
            if not self._dates_agree(p, start, end):
                return None  # a date the sentence does not give is invented
            found = Found(topic, value, (a - offset, a - offset + len(value)), 0.7, max(0, a - offset - 6), shape)
            ahead = end is not None or (start is not None and start > m.at)
            verdict = self.rules._judge(found, sentence, offset, lang, span, ahead)
            if verdict.ok and not verdict.negated:
                return self._event(m, found, sentence, offset, lang, span, start, end, verdict)
        return None

    def _event(self, m: MessageEvent, found: Found, sentence: str, offset: int, lang: str, span: Any,
               start: datetime | None, end: datetime | None, verdict: Verdict) -> dict[str, Any] | None:
        topic = found.topic
        one_off = bool(ONE_OFF.search(sentence)) and not STANDING.search(sentence)
        env = self.rules._env(sentence) if topic.env_scoped else None
        # The rules' own statement builder: subject from the gates, dates, "for now" without an
        # end and a one-off request as candidates. Never L0: a model does not scope a session.
        event = self.rules._set(m, found, env, sentence, offset, lang, span, start, end, "L2", None, verdict, one_off)
        event["authority"] = "L2"
        reasoned = "reason" in event
        if self.trust == "candidate" or m.drawn_as == "inferred" or reasoned:
            event["status"] = "candidate"
        else:
            event.pop("status", None)
        try:
            parse_event(event)
        except ValueError:
            return None
        return event

    @staticmethod
    def _precise(value: str, lang: str, shapes: set[str | None], many: bool) -> list[tuple[str, str | None]]:
        """The value as a rule would keep it under each of the topic's shapes (cleaned, a place
        trimmed, the shape's check passed): the readings the gates then judge, in a fixed order."""
        out: list[tuple[str, str | None]] = []
        for shape in sorted(shapes, key=lambda x: x or ""):
            v = clean(value, lang, shape, many)
            if lang == "en":
                v = re.sub(r"^the\s+", "", v, flags=re.I)
            if shape == "place":
                v = trim_place(v)
            if v and v in value and Matcher._shape_ok(shape, v) and (v, shape) not in out:
                out.append((v, shape))
        return out

    @staticmethod
    def _dates_agree(p: dict[str, Any], start: datetime | None, end: datetime | None) -> bool:
        """A model's ``valid_from`` / ``valid_to`` must be ISO days the sentence itself gives."""
        for key, mine in (("valid_from", start), ("valid_to", end)):
            day = p.get(key)
            if day is None or day == "":
                continue
            if not isinstance(day, str) or not _DAY.match(day):
                return False
            if mine is None or mine.date().isoformat() != day:
                return False
        return True
