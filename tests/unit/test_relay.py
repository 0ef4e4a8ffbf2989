"""Relayed words without a database (graphmem.core.relay): who relayed a source, from the stored
field or an older store's id; the mark a rendered item carries; the events and transcript rows
that carry ``relayed_by``."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.core.errors import ValidationError
from graphmem.core.models import parse_event
from graphmem.core.relay import relay_mark, relay_note, relayed_by, relayed_by_id
from graphmem.recall.context_text import fit, render_working
from graphmem.recall.memory_context import ContextItem, ItemWarning, MemoryContext, SourceRef
from graphmem.store.transcripts import message_event
from graphmem.working.working import WorkingItem

NOW = datetime(2026, 10, 6, 9, tzinfo=timezone.utc)
SAID = datetime(2026, 9, 18, 10, tzinfo=timezone.utc)


@pytest.mark.parametrize("source, agent", [
    ("relayed~claude~m2", "claude"), ("relayed~gpt-5~mcp-abc", "gpt-5"), ("m2", None), (None, None), ("", None),
    ("relayed~~m2", None), ("wm:s:relayed~claude~u1", "claude"),  # the end gate's id around an old item id
])
def test_an_old_style_id_names_its_agent(source, agent):
    assert relayed_by_id(source) == agent


def test_the_stored_field_wins_and_the_first_relayed_source_answers():
    assert relayed_by(["m1", "m2"], {"m2": "claude"}) == "claude"
    assert relayed_by(["relayed~old~m1", "m2"], {"m2": "claude"}) == "old"  # in the sources' order
    assert relayed_by(["relayed~old~m1"], {"relayed~old~m1": "new"}) == "new"
    assert relayed_by([None, "m3"], {}) is None and relayed_by([], {"m2": "claude"}) is None


def test_the_events_carry_relayed_by_and_leave_it_out_when_absent():
    message = parse_event({"op": "message", "id": "m2", "at": "2026-09-18T10:00:00Z", "speaker": "lin", "text": "hi",
                           "relayed_by": "claude"})
    source = parse_event({"op": "source", "id": "s1", "kind": "message", "at": "2026-09-18T10:00:00Z",
                          "relayed_by": "claude"})
    assert message.payload()["relayed_by"] == source.payload()["relayed_by"] == "claude"
    # an event without it has the payload (and so the ledger hash) it always had
    plain = parse_event({"op": "message", "id": "m2", "at": "2026-09-18T10:00:00Z", "speaker": "lin", "text": "hi"})
    assert "relayed_by" not in plain.payload()
    with pytest.raises(ValidationError):
        parse_event({"op": "message", "id": "m2", "at": "2026-09-18T10:00:00Z", "speaker": "lin", "text": "hi",
                     "relayed_by": "   "})


def test_only_a_user_row_is_relayed():
    user = message_event({"role": "user", "content": "I'm vegetarian.", "relayed_by": "claude"}, NOW, user="lin")
    bot = message_event({"role": "assistant", "content": "Noted.", "relayed_by": "claude"}, NOW)
    own = message_event({"id": "m1", "speaker": "lin", "text": "I'm vegetarian.", "relayed_by": "claude"}, NOW)
    assert user["relayed_by"] == own["relayed_by"] == "claude" and "relayed_by" not in bot


def _item(**kw) -> ContextItem:
    src = SourceRef(id="m2", kind="message", at=SAID, author="lin", text="我9月20日起搬到河湾路。")
    return ContextItem(kind="fact", subject="lin", topic="home_address", value="河湾路", authority="L1",
                       status="confirmed", version=1, valid_from=datetime(2026, 9, 20, tzinfo=timezone.utc),
                       recorded_at=SAID, source=src, score=1.0, **kw)


def test_a_relayed_item_says_so_on_its_own_line_and_nowhere_else():
    warning = ItemWarning(kind="relayed", message=relay_note("claude"))
    out = fit(MemoryContext(task="x", tenant="t", valid_at=NOW, known_at=NOW, ledger_version=1, budget_tokens=1500,
                            items=[_item(relayed_by="claude", warnings=[warning])])).text
    line = next(x for x in out.splitlines() if x.startswith("- lin home address"))
    assert line.endswith("m2 · " + relay_mark("claude")) and "! relayed" not in out
    plain = fit(MemoryContext(task="x", tenant="t", valid_at=NOW, known_at=NOW, ledger_version=1, budget_tokens=1500,
                              items=[_item()])).text
    assert "relayed" not in plain


def test_a_relayed_working_turn_says_so():
    turn = WorkingItem(id="u1", session="s", type="turn", role="user", author="lin", text="I moved.",
                       relayed_by="claude")
    assert "(u1, relayed by agent claude, importance 0.5)" in render_working(turn)
    assert "relayed" not in render_working(turn.model_copy(update={"relayed_by": None}))
