"""A long assistant turn that names nobody is not parsed (graphmem/store/transcripts.py: ``drawn:
[]``), yet it is stored as its message, embedded, and recalled by ``context()`` like any other;
an assistant row with an ``about`` is still drawn, and a user's turn as before."""

from __future__ import annotations

from graphmem.bench.haystack import haystack
from graphmem.extract import matmul, parse_pool

AT = "2026-09-18T10:00:00Z"
LONG = ("Great question! Here is a plan for the Zanzibar ferry timetable.\n\n"
        "1. **Check the season**: ferries from Dar es Salaam run more often in the dry months.\n"
        "2. **Book ahead**: the morning departures fill up first.\n\n"
        "```\nSELECT departs, arrives FROM ferries WHERE route = 'dar-znz';\n```\n\n"
        "I hope this helps, and feel free to ask follow-up questions.")


def _parsed_texts(monkeypatch) -> list[str]:
    """Every text this process hands spaCy from now on (alone, or in a batch)."""
    seen: list[str] = []
    parse, pipe, many = matmul.parse, matmul.pipe, parse_pool.parse_many

    def one(nlp, text, *a, **k):
        seen.append(text)
        return parse(nlp, text, *a, **k)

    def batch(nlp, texts, *a, **k):
        texts = list(texts)
        seen.extend(texts)
        return pipe(nlp, texts, *a, **k)

    def pooled(nlp, texts, *a, **k):
        texts = list(texts)
        seen.extend(texts)
        return many(nlp, texts, *a, **k)

    monkeypatch.setattr(matmul, "parse", one)
    monkeypatch.setattr(matmul, "pipe", batch)
    monkeypatch.setattr(parse_pool, "parse_many", pooled)
    return seen


def test_an_unparsed_assistant_turn_is_stored_embedded_and_recalled(store, monkeypatch):
    seen = _parsed_texts(monkeypatch)
    rows = [{"role": "user", "content": "I moved to Lisbon last spring. How do I get to Zanzibar by boat?"},
            {"role": "assistant", "content": LONG},
            {"role": "assistant", "content": "Got it: you live in Lisbon now.", "about": "lin"}]
    added = store.add(rows, user="lin", session="s1", at=AT)
    assert [a.drawn_as for a in added] == ["stated", "inferred", "inferred"]
    assert LONG not in seen, "the long assistant turn was parsed"
    assert rows[0]["content"] in seen and rows[2]["content"] in seen  # the user's, and the relayed one
    assert added[1].facts == [] and not added[1].duplicate
    assert store.as_of("lin", "home_city").value == "Lisbon"

    ctx = store.context("What did the assistant say about the Zanzibar ferry timetable?", budget_tokens=800)
    shown = {i.source.id: i for i in ctx.items if i.source is not None}
    assert added[1].id in shown, "the unparsed turn is not recalled"
    assert shown[added[1].id].source.author == "assistant" and "ferry timetable" in shown[added[1].id].source.text

    again = store.add(rows, user="lin", session="s1", at=AT)  # the same rows: nothing new, nothing parsed again
    assert all(a.duplicate for a in again)


def test_a_haystack_keeps_every_turn_and_parses_only_the_users(store, monkeypatch):
    rows = haystack(60, seed=5)
    seen = _parsed_texts(monkeypatch)
    results = store.ingest_bulk(rows)
    assert len(results) == 60 and not any(r.duplicate for r in results)
    assistant = {r["content"] for r in rows if r["role"] == "assistant"}
    assert not assistant & set(seen)
    # the user's own words are drawn as before ("I started a new job at Initech on Monday.")
    assert "I started a new job at Initech on Monday." in {r["content"] for r in rows}
    assert store.as_of("maya", "employer").value == "Initech"
