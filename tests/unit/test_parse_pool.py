"""The bulk parse shared with a worker process (graphmem/extract/parse_pool.py) gives the rules
the same parse as one process does: the extractor's events are identical either way, on the
labelled extraction sets and the shipped example messages."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from graphmem import examples
from graphmem.extract import RuleExtractor, parse_pool
from graphmem.extract.score import load
from graphmem.core.models import MessageEvent

DATA = Path(__file__).parent.parent / "data" / "extraction"


def _at(s: str) -> datetime:
    return datetime.fromisoformat(s.replace("Z", "+00:00"))


def _messages() -> list[MessageEvent]:
    out = []
    for name in ("tune.jsonl", "heldout.jsonl"):
        for i, r in enumerate(load(DATA / name)):
            out.append(MessageEvent(op="message", id=f"{name}-{i}", at=_at(r["at"]), speaker=r.get("speaker", "lin"),
                                    text=r["text"], about=r.get("about"), session=r.get("session")))
    for scenario in json.loads(examples.path("messages.json").read_text(encoding="utf-8")):
        for e in scenario["events"]:
            if e.get("op") == "message":
                out.append(MessageEvent(op="message", id=f"{scenario['id']}-{e['id']}", at=_at(e["at"]),
                                        speaker=e["speaker"], text=e["text"], about=e.get("about")))
    return out



def test_events_are_identical_with_the_worker(pooled, monkeypatch):
    messages = _messages()
    assert len(messages) > 300
    monkeypatch.setenv("GRAPHMEM_PARSE_WORKERS", "0")
    alone = RuleExtractor().extract_many(messages, episodes=True)  # parsed in this process only
    monkeypatch.setenv("GRAPHMEM_PARSE_WORKERS", "1")
    before = parse_pool.worker_texts
    # prepare() (the store's bulk path) shares the parse with the worker; draw() finds it.
    ex = RuleExtractor()
    ex.prepare([m.text for m in messages])
    assert [ex.draw(m) for m in messages] == alone
    assert parse_pool.worker_texts > before, "the worker parsed nothing: the test compared nothing"


def test_a_packed_parse_is_the_same_parse():
    nlp = RuleExtractor().nlp("en")
    text = "Melanie and I went camping at Lake Tahoe last weekend! It was great, she said.  Bye."
    doc = nlp(text)
    back = parse_pool.unpack(nlp.vocab, parse_pool.pack(doc))

    def annotations(d):
        return [(t.text, t.whitespace_, t.tag_, t.pos_, t.dep_, t.head.i, t.ent_iob_, t.ent_type_, str(t.morph),
                 t.is_sent_start) for t in d]

    assert back.text == text and annotations(back) == annotations(doc)
    assert [s.text for s in back.sents] == [s.text for s in doc.sents]
    assert [(e.text, e.label_) for e in back.ents] == [(e.text, e.label_) for e in doc.ents]
    assert back.has_annotation("DEP") and back.has_annotation("TAG") and back.has_annotation("ENT_IOB")


def test_off_means_one_process(monkeypatch):
    monkeypatch.setenv("GRAPHMEM_PARSE_WORKERS", "0")
    monkeypatch.setattr(parse_pool, "MIN_TEXTS", 0)
    before = parse_pool.worker_texts
    docs = RuleExtractor().parse_many(["I moved to Porto.", "We met in May."] * 10)
    assert len(docs) == 20 and parse_pool.worker_texts == before


def test_by_default_the_worker_needs_a_free_core(monkeypatch):
    monkeypatch.delenv("GRAPHMEM_PARSE_WORKERS", raising=False)
    monkeypatch.setattr(parse_pool, "_broken", False)
    monkeypatch.setattr(parse_pool.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(parse_pool.os, "getloadavg", lambda: (0.4, 0.5, 0.5))
    assert parse_pool.enabled()
    # An import in progress loads the machine by itself (this process ~1, the server some more):
    # that must not turn the worker off halfway through it.
    monkeypatch.setattr(parse_pool.os, "getloadavg", lambda: (1.4, 0.9, 0.6))
    assert parse_pool.enabled()
    monkeypatch.setattr(parse_pool.os, "getloadavg", lambda: (2.6, 2.2, 1.5))  # another job has a core
    assert not parse_pool.enabled()
    monkeypatch.setattr(parse_pool.os, "getloadavg", lambda: (6.2, 6.0, 5.0))  # saturated: parse here
    assert not parse_pool.enabled()
    monkeypatch.setenv("GRAPHMEM_PARSE_WORKERS", "1")
    assert parse_pool.enabled()
    monkeypatch.setenv("GRAPHMEM_PARSE_WORKERS", "0")
    monkeypatch.setattr(parse_pool.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert not parse_pool.enabled()
    monkeypatch.delenv("GRAPHMEM_PARSE_WORKERS")
    monkeypatch.setattr(parse_pool.os, "cpu_count", lambda: 1)
    assert not parse_pool.enabled()


def _parsed(docs):
    return [[(t.text, t.tag_, t.pos_, t.dep_, t.head.i, t.ent_iob_, t.ent_type_, str(t.morph)) for t in d] for d in docs]


def test_a_parse_started_ahead_is_taken_up_or_cancelled(pooled):
    """The bulk path starts the worker on the next batch while this one's rules run: the parse
    that then asks for those texts gets them (the same parse); one for other texts cancels it."""
    nlp = RuleExtractor().nlp("en")
    texts = [f"I moved to Porto with Anna in {year}, she said." for year in range(1950, 2030)]
    other = [f"We met Tom at the lake in {year}." for year in range(1950, 2030)]
    want = _parsed(nlp.pipe(texts))
    before = parse_pool.worker_texts
    parse_pool.parse_ahead(texts)
    assert _parsed(parse_pool.parse_many(nlp, texts)) == want
    assert parse_pool.worker_texts > before, "the worker parsed nothing ahead: the test compared nothing"
    parse_pool.parse_ahead(other)  # started, and never asked for
    assert _parsed(parse_pool.parse_many(nlp, texts)) == want
    assert parse_pool._pending is None
    parse_pool.parse_ahead(other)
    parse_pool.shutdown()  # a parse started ahead does not keep the worker from ending
    assert parse_pool._pending is None
