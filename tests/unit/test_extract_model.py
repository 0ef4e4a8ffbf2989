"""The model-backed extractor's protocol, against a local fake OpenAI-compatible server.

The fake "model" proposes right and wrong facts; only those the precision gates accept survive.
"""

from __future__ import annotations

import json
import threading
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from graphmem.core.errors import ExtractionError
from graphmem.extract.model import SCHEMA, ModelExtractor
from graphmem.core.models import MessageEvent, parse_event

AT = datetime(2026, 9, 28, 10, tzinfo=timezone.utc)


class Fake(BaseHTTPRequestHandler):
    answer: dict = {}
    status = 200
    seen: list = []

    def do_POST(self):  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Fake.seen.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
        payload = json.dumps({"choices": [{"message": {"content": json.dumps(Fake.answer)}}]}).encode()
        self.send_response(Fake.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    srv = HTTPServer(("127.0.0.1", 0), Fake)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    srv.shutdown()


def fact(subject, topic, value, vf=None, vt=None):
    return {"subject": subject, "topic": topic, "value": value, "valid_from": vf, "valid_to": vt}


def test_only_gated_facts_survive(server):
    Fake.status, Fake.seen[:] = 200, []
    Fake.answer = {"facts": [fact("speaker", "home_city", "Denver", "2026-09-01"),
                             fact("speaker", "allergy", "pets"),            # "you mentioned…?": a question
                             fact("speaker", "employer", "Google"),         # "my wife works at Google"
                             fact("speaker", "diet", "vegan"),              # not in the text
                             fact("speaker", "home_city", "Denver", "yesterday")]}  # not an ISO day
    text = "I moved to Denver on Sept 1. My wife works at Google. You mentioned you were allergic to pets?"
    ex = ModelExtractor(server, model="fake-1", api_key="k")
    events = ex.extract(MessageEvent(op="message", id="m1", at=AT, speaker="lin", text=text))
    assert [(e["subject"], e["topic"], e["value"], e["valid_from"][:10]) for e in events] == [
        ("lin", "home_city", "Denver", "2026-09-01")]
    assert events[0]["status"] == "candidate" and events[0]["authority"] == "L2"
    parse_event(events[0])
    req = Fake.seen[0]
    assert req["path"] == "/v1/chat/completions" and req["auth"] == "Bearer k"
    assert req["body"]["response_format"]["json_schema"]["schema"] == SCHEMA


def test_a_quote_is_left_to_the_rules(server):
    Fake.status, Fake.seen[:] = 200, []
    Fake.answer = {"facts": [fact("speaker", "home_address", "12 Oak Street")]}
    ex = ModelExtractor(server, model="fake-1", trust="statement")
    events = ex.extract(MessageEvent(op="message", id="m1", at=AT, speaker="lin",
                                     text="the 2024 lease says I live at 12 Oak Street."))
    assert [e["op"] for e in events] == ["source", "quote"] and Fake.seen == []


def test_a_broken_answer_is_a_typed_error(server):
    Fake.status, Fake.answer = 500, {"facts": []}
    ex = ModelExtractor(server, model="fake-1")
    with pytest.raises(ExtractionError, match="no usable answer"):
        ex.extract(MessageEvent(op="message", id="m1", at=AT, speaker="lin", text="I live in Oslo."))
    Fake.status, Fake.answer = 200, {"nope": 1}
    with pytest.raises(ExtractionError):
        ex.extract(MessageEvent(op="message", id="m1", at=AT, speaker="lin", text="I live in Oslo."))
