"""An optional model-backed extractor: an OpenAI-compatible chat endpoint with a JSON schema.

For users who run a model (a local server or a hosted one). The model proposes facts; nothing it
says is trusted as is. Every proposal goes through the rule extractor's checks:

* the value must be a substring of the message (nothing invented, nothing translated);
* the sentence holding it must pass the precision gates (not a question, not second person,
  not someone else's, not hypothetical, not negated, not an old document's words);
* the subject is decided by the gates, not by the model ("speaker", "about" or a name it gives
  is only accepted when the gates agree);
* dates must be ISO days, ``valid_to`` after ``valid_from``; the event must parse as FORMAT.md.

What survives is drawn as an L2 **candidate** by default (a model's reading of a person's words;
``trust="statement"`` makes it L1). Install with ``pip install graphmem[model]`` (httpx). Never
counted in the quality figures of docs/extraction.md.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import Any, Sequence

from ..core.errors import ConfigurationError, ExtractionError
from ..core.models import MessageEvent, parse_event
from .gates import is_question, judge_en, judge_zh
from .quotes import find_quote, mentions_old_document
from .base import language_of
from .rules import PriorFact, RuleExtractor

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
        if not text.strip():
            return []
        lang = language_of(text)
        if find_quote(text, lang, message.at) is not None:
            return self.rules.extract(message, context)  # quotes are dated by the rules, never by a model
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
        value, topic = str(p.get("value") or "").strip(), str(p.get("topic") or "").strip()
        if not value or not topic or value not in m.text:
            return None
        a = m.text.find(value)
        b = a + len(value)
        sent = next(((o, s, sp) for o, s, sp in sentences if o <= a < o + len(s)), None)
        if sent is None:
            return None
        offset, sentence, span = sent
        if is_question(sentence, lang) or mentions_old_document(sentence, m.at):
            return None
        rules = self.rules.vocabulary.topics.get(topic)
        about_topic = rules is not None and rules.subject == "about"
        if lang == "zh":
            verdict = judge_zh(sentence, max(0, a - offset - 6), a - offset, b - offset, topic, about_topic, False)
        elif span is not None and span.doc.has_annotation("DEP"):
            verdict = judge_en(span, a, b, topic, about_topic, False)
        else:
            return None  # no parse, no gate: draw nothing
        if not verdict.ok or verdict.negated:
            return None
        if about_topic and m.about:
            subject = m.about
        elif verdict.subject and verdict.subject != "@speaker":
            subject = verdict.subject
        else:
            subject = m.speaker
        event: dict[str, Any] = {"op": "set", "subject": subject, "topic": topic, "value": value, "source": m.id,
                                 "evidence": f"[{a}:{b}] {sentence.strip()}", "confidence": 0.7}
        if self.trust == "candidate":
            event.update(authority="L2", status="candidate")
        for key in ("valid_from", "valid_to"):
            day = p.get(key)
            if day:
                if not isinstance(day, str) or not _DAY.match(day):
                    return None
                event[key] = datetime.fromisoformat(day).replace(tzinfo=timezone.utc).isoformat()
        try:
            parse_event(event)
        except ValueError:
            return None
        return event
