"""The model extractor's gates, end to end over real HTTP (issue #43, item 4).

A tiny OpenAI-compatible server runs on 127.0.0.1 inside the test and answers each message with a
canned completion — a "model" that proposes what a careless model would: the value of a question,
of hearsay, of a hypothetical, of a quoted document, an assistant's words, a one-off request,
"for now" without an end, values with noise or not in the text, dates the text does not give.
Only what the rule extractor's own gates accept survives, and it is L2 (docs/design.md §5).
"""

from __future__ import annotations

import json
import threading
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest

from graphmem.core.models import MessageEvent, parse_event
from graphmem.extract.model import ModelExtractor

AT = datetime(2026, 9, 28, 10, tzinfo=timezone.utc)


def fact(topic: str, value: str, vf: str | None = None, vt: str | None = None, subject: str = "speaker") -> dict:
    return {"subject": subject, "topic": topic, "value": value, "valid_from": vf, "valid_to": vt}


# message text -> what the "model" proposes for it
CANNED: dict[str, list[dict]] = {
    "Do you live in Denver?": [fact("home_city", "Denver")],
    "My sister said she lives in Oslo.": [fact("home_city", "Oslo")],
    "If I moved to Lisbon I would be happier.": [fact("home_city", "Lisbon")],
    "I might move to Kyoto next year.": [fact("home_city", "Kyoto")],
    "You work at Initech, right.": [fact("employer", "Initech")],
    "I don't live in Paris anymore.": [fact("home_city", "Paris")],
    "I moved to Denver on Sept 1.": [fact("home_city", "Denver", "2026-09-01")],
    "I moved to Austin.": [fact("home_city", "Austin", "2025-01-01")],  # a date the text does not give
    "I live in Berlin now.": [fact("home_city", "Berlin now"), fact("home_city", "Munich"),
                              fact("shoe_size", "Berlin"), fact("home_address", "Berlin")],
    "For now I'm staying in Austin.": [fact("home_city", "Austin")],
    "Please reply in French this time.": [fact("reply_language", "French")],
    "I work at Hooli.": [fact("employer", "Hooli")],
    "我住在青禾路88号。": [fact("home_address", "青禾路88号")],
    "你住在海城吗？": [fact("home_city", "海城")],
    "如果我搬到苏州就好了。": [fact("home_city", "苏州")],
}


class Fake(BaseHTTPRequestHandler):
    calls: list[str] = []

    def do_POST(self):  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        text = json.loads(body["messages"][-1]["content"])["text"]
        Fake.calls.append(text)
        content = json.dumps({"facts": CANNED.get(text, [])}, ensure_ascii=False)
        payload = json.dumps({"id": "x", "object": "chat.completion", "model": body["model"],
                              "choices": [{"index": 0, "finish_reason": "stop",
                                           "message": {"role": "assistant", "content": content}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def url():
    srv = HTTPServer(("127.0.0.1", 0), Fake)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def model(url):
    return ModelExtractor(url, model="fake-1")


def run(ex: ModelExtractor, text: str, **kw: Any) -> list[dict]:
    events = ex.extract(MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text, **kw))
    for e in events:
        parse_event(e)
    return events


def sets(events: list[dict]) -> list[tuple]:
    return [(e["subject"], e["topic"], e["value"]) for e in events if e["op"] == "set"]


@pytest.mark.parametrize("text", [
    "Do you live in Denver?", "My sister said she lives in Oslo.", "If I moved to Lisbon I would be happier.",
    "I might move to Kyoto next year.", "You work at Initech, right.", "I don't live in Paris anymore.",
    "I moved to Austin.", "你住在海城吗？", "如果我搬到苏州就好了。",
])
def test_what_the_gates_refuse_draws_nothing_for_the_speaker(model, text):
    assert [s for s in sets(run(model, text)) if s[0] == "lin"] == []


def test_a_gated_statement_is_an_l2_candidate_with_the_sentences_dates(model):
    [e] = run(model, "I moved to Denver on Sept 1.")
    assert (e["subject"], e["topic"], e["value"], e["valid_from"][:10]) == ("lin", "home_city", "Denver", "2026-09-01")
    assert (e["authority"], e["status"]) == ("L2", "candidate")
    [z] = run(model, "我住在青禾路88号。")
    assert (z["subject"], z["topic"], z["value"], z["authority"]) == ("lin", "home_address", "青禾路88号", "L2")


def test_values_are_the_rules_values_or_nothing(model):
    # "Berlin now" is cleaned to "Berlin"; "Munich" is not in the text; shoe_size is no topic;
    # "Berlin" is no address
    assert sets(run(model, "I live in Berlin now.")) == [("lin", "home_city", "Berlin")]


def test_temporary_without_an_end_and_one_off_requests_are_candidates(url):
    trusting = ModelExtractor(url, model="fake-1", trust="statement")
    [e] = run(trusting, "For now I'm staying in Austin.")
    assert (e["status"], e["reason"]) == ("candidate", "temporary (no end stated)")
    [e] = run(trusting, "Please reply in French this time.", session="s1")
    assert e["status"] == "candidate" and "one-off" in e["reason"] and "session" not in e
    assert e["authority"] == "L2"  # never L0: a model does not scope a session


def test_trust_statement_is_still_l2_and_an_assistants_words_stay_candidates(url):
    trusting = ModelExtractor(url, model="fake-1", trust="statement")
    [e] = run(trusting, "I work at Hooli.")
    assert (e["authority"], e.get("status", "confirmed")) == ("L2", "confirmed")
    [e] = run(trusting, "I work at Hooli.", drawn_as="inferred")
    assert (e["authority"], e["status"]) == ("L2", "candidate")


def test_quotes_and_pastes_never_reach_the_model(model):
    Fake.calls.clear()
    quoted = run(model, "The 2024 lease says I live at 12 Oak Street.")
    assert [e["op"] for e in quoted] == ["source", "quote"]
    article = ("Berlin is the capital and largest city of Germany. In 1990 the city was reunified and became the "
               "seat of government again. The 2023 record shows a population of 3.8 million. The city lies on the "
               "Spree, and many officials live in Berlin.")
    assert run(model, article) == []
    assert Fake.calls == []


def test_the_request_is_openai_compatible(url):
    Fake.calls.clear()
    ex = ModelExtractor(url + "/", model="fake-1", api_key="k")
    run(ex, "I work at Hooli.")
    assert Fake.calls == ["I work at Hooli."]


def test_from_env_reads_the_server_and_refuses_half_a_setup(url):
    from graphmem.core.errors import ConfigurationError

    ex = ModelExtractor.from_env({"GRAPHMEM_MODEL_URL": url, "GRAPHMEM_MODEL": "fake-1",
                                  "GRAPHMEM_MODEL_TRUST": "statement"})
    assert (ex.url, ex.model, ex.trust) == (url + "/chat/completions", "fake-1", "statement")
    assert sets(run(ex, "I work at Hooli.")) == [("lin", "employer", "Hooli")]
    with pytest.raises(ConfigurationError, match="GRAPHMEM_MODEL_URL"):
        ModelExtractor.from_env({"GRAPHMEM_MODEL": "fake-1"})
    with pytest.raises(ConfigurationError, match="trust"):
        ModelExtractor.from_env({"GRAPHMEM_MODEL_URL": url, "GRAPHMEM_MODEL": "m", "GRAPHMEM_MODEL_TRUST": "yes"})
