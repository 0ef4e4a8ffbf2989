"""Transcript ingest's fast path draws what the plain path draws.

The bulk path (``mem.ingest_bulk`` / ``mem.add``) parses a batch's texts in one ``nlp.pipe`` pass
(shared with the parse worker) and no longer parses a non-person's row that names nobody
(``drawn: []``, graphmem/store/transcripts.py). The plain path parses and draws each message on
its own, every role included. On the labelled rows of tune.jsonl and people-dev.jsonl, read as
transcript rows, both give exactly the same events for every message."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from graphmem.core.models import MessageEvent
from graphmem.extract import RuleExtractor
from graphmem.extract.roles import keep_drawn
from graphmem.extract.score import load
from graphmem.store.projection.values import plain
from graphmem.store.transcripts import transcript_events

DATA = Path(__file__).parent.parent / "data" / "extraction"
NOW = datetime(2026, 10, 1, tzinfo=timezone.utc)


def _rows() -> list[dict[str, Any]]:
    """Every labelled row as a transcript row: a chat row ``{role, content, name}`` where the row
    has a ``role``, else graphmem's ``{id, speaker, text}`` shape."""
    out: list[dict[str, Any]] = []
    for name in ("tune.jsonl", "people-dev.jsonl"):
        for i, r in enumerate(load(DATA / name)):
            extra = {k: r[k] for k in ("about", "session") if r.get(k)}
            if r.get("role"):
                out.append({"role": r["role"], "content": r["text"], "name": r.get("speaker"), "id": f"{name}-{i}",
                            "created_at": r["at"], **extra})
            else:
                out.append({"id": f"{name}-{i}", "speaker": r.get("speaker", "lin"), "text": r["text"],
                            "at": r["at"], **extra})
    return out


def _message(event: dict[str, Any]) -> MessageEvent:
    return MessageEvent(**{k: v for k, v in event.items() if k != "drawn"})


def _kept(ex: RuleExtractor, m: MessageEvent) -> list[dict[str, Any]]:
    """What the store keeps of a message drawn by ``ex`` (graphmem.store.api's ``_extract``)."""
    drawn = [plain(d) for d in ex.draw(m)]
    return drawn if m.drawn_as == "stated" else keep_drawn(drawn, m.speaker, m.drawn_as)



def test_the_batched_path_draws_exactly_what_the_plain_path_draws(pooled):
    events = transcript_events(_rows(), NOW)
    skipped = [e for e in events if "drawn" in e]
    assert len(events) > 350 and len(skipped) >= 5, "the sample has no unparsed row: the test compares nothing"
    assert all(e["drawn_as"] == "inferred" and not e.get("about") for e in skipped)

    plain_ex = RuleExtractor()  # every message on its own: its own parse, every role drawn
    plain_drawn = {e["id"]: _kept(plain_ex, _message(e)) for e in events}

    batched_ex = RuleExtractor()  # one parse for the batch, as the store's bulk path does
    batched_ex.prepare([e["text"] for e in events if "drawn" not in e])
    batched = {e["id"]: e["drawn"] if "drawn" in e else _kept(batched_ex, _message(e)) for e in events}

    assert batched == plain_drawn
    # a non-person's row with an ``about`` (an assistant relaying what that person said) is still drawn
    relayed = [e for e in events if e.get("drawn_as") == "inferred" and e.get("about")]
    assert relayed and not any("drawn" in e for e in relayed)


def test_only_a_non_persons_row_naming_nobody_goes_unparsed():
    rows = [{"role": "assistant", "content": "Lasagna is vegan if you use tofu ricotta."},
            {"role": "assistant", "content": "Got it, Omar: you started at Contoso on Monday.", "about": "omar"},
            {"role": "tool", "content": '{"temp_c": 24}', "name": "weather"},
            {"role": "user", "content": "I'm vegetarian."},
            {"speaker": "assistant", "text": "Noted.", "id": "m5"},
            {"speaker": "lin", "text": "I live in Lisbon.", "id": "m6"}]
    events = transcript_events(rows, NOW, user="lin")
    assert ["drawn" in e for e in events] == [True, False, True, False, True, False]
    assert all(e["drawn"] == [] for e in events if "drawn" in e)
