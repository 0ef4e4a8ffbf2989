"""``make demo`` / ``graphmem demo``: the address and port stories of docs/design.md, end to end."""

from __future__ import annotations

from typing import Any, Iterator

__all__ = ["DEMO_EVENTS", "run_demo"]

DEMO_EVENTS: list[dict[str, Any]] = [
    {"op": "source", "id": "m0901", "kind": "message", "at": "2026-09-01T09:00:00Z", "text": "我常住青禾路。", "author": "lin"},
    {"op": "set", "subject": "lin", "topic": "home_address", "value": "青禾路", "valid_from": "2026-09-01", "source": "m0901", "recorded_at": "2026-09-01T09:00:00Z"},
    {"op": "source", "id": "email0901", "kind": "email", "at": "2026-09-01T12:00:00Z", "text": "收件地址：青禾路", "author": "lin"},
    {"op": "source", "id": "m0918", "kind": "message", "at": "2026-09-18T10:00:00Z", "text": "我9月20日起搬到河湾路。", "author": "lin"},
    {"op": "set", "subject": "lin", "topic": "home_address", "value": "河湾路", "valid_from": "2026-09-20", "source": "m0918", "recorded_at": "2026-09-18T10:00:00Z"},
    {"op": "source", "id": "m0928", "kind": "message", "at": "2026-09-28T10:00:00Z", "text": "10月3日至7日去海城出差，住海星酒店。", "author": "lin"},
    {"op": "set", "subject": "lin", "topic": "trip_city", "value": "海城", "valid_from": "2026-10-03", "valid_to": "2026-10-08", "source": "m0928", "recorded_at": "2026-09-28T10:00:00Z"},
    {"op": "source", "id": "m1005", "kind": "message", "at": "2026-10-05T10:00:00Z", "text": "这是9月1日那封邮件，里面写我住青禾路。", "author": "lin"},
    {"op": "quote", "source": "m1005", "quotes": "email0901", "claims": [{"subject": "lin", "topic": "home_address", "value": "青禾路"}], "recorded_at": "2026-10-05T10:00:00Z"},
    {"op": "source", "id": "r1", "kind": "message", "at": "2026-11-01T10:00:00Z", "text": "Use the private network, port 8000.", "author": "ops"},
    {"op": "set", "subject": "deploy", "topic": "port", "value": "8000", "source": "r1", "recorded_at": "2026-11-01T10:00:00Z"},
    {"op": "source", "id": "r7", "kind": "message", "at": "2026-11-01T10:30:00Z", "text": "Change the port to 9000.", "author": "ops"},
    {"op": "set", "subject": "deploy", "topic": "port", "value": "9000", "source": "r7", "recorded_at": "2026-11-01T10:30:00Z"},
    {"op": "source", "id": "r9", "kind": "message", "at": "2026-11-01T10:45:00Z", "text": "Withdraw the deploy task.", "author": "ops"},
    {"op": "revoke", "subject": "deploy", "topic": "port", "source": "r9", "recorded_at": "2026-11-01T10:45:00Z"},
]

QUESTIONS = [
    ("lin", "home_address", "2026-09-10", None, "where did lin live on Sep 10?"),
    ("lin", "home_address", "2026-10-05", None, "where does lin live on Oct 5 (on the trip, after quoting the old email)?"),
    ("lin", "trip_city", "2026-10-05", None, "where is lin on Oct 5?"),
    ("lin", "home_address", "2026-09-22", "2026-09-15", "Sep 22, as we knew it on Sep 15?"),
    ("deploy", "port", "2026-11-01T10:40:00Z", None, "deploy port at 10:40?"),
    ("deploy", "port", None, None, "deploy port now (the deploy was withdrawn)?"),
]


def run_demo(store: Any) -> Iterator[str]:
    """Load the story into a clean tenant and yield one line per answer."""
    store.drop_tenant()
    store.apply_many(DEMO_EVENTS)
    yield f"Loaded {len(DEMO_EVENTS)} events into tenant '{store.tenant}'."
    for subject, topic, valid_at, known_at, question in QUESTIONS:
        a = store.as_of(subject, topic, valid_at=valid_at, known_at=known_at)
        answer = a.value if a.value is not None else ("conflict " + str(a.conflict) if a.conflict else "(nothing holds)")
        yield f"{question:<75} {answer}" + (f"   [source {a.source}]" if a.source else "")
    w = store.why("deploy", "port", valid_at="2026-11-01T10:40:00Z")
    yield f"why 9000? source {w.source}, it replaced {w.supersedes_value} from {w.supersedes_source}"
    yield "deploy port history: " + " -> ".join(store.history_values("deploy", "port"))
    ctx = store.context("Where should I send lin's package on Oct 5? 寄到哪里？", subject="lin", valid_at="2026-10-05",
                        budget_tokens=600, summary=False)
    yield ""
    yield "What an agent is told for 'where should I send lin's package on Oct 5?' (store.context, 600 tokens):"
    yield ctx.render()
