"""No quoted document ever becomes current, in the store: whatever a dated quote says, what
``as_of`` answers now is what it answered before the quoting message (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

AT = "2026-09-28T10:00:00Z"
LEADS = ["The {d} lease says I live at {v}.", "An email from {d} says: I live at {v}.",
         "Here's my {d} registration form: I live at {v}.", "这是{d}的合同，上面写着我住{v}。", "Fwd: ({d}) I live at {v}.",
         "截图是{d}的，上面显示我住{v}。", "The lease says I live at {v}."]
DATES = ["2024", "March 2025", "last March", "去年", "2025年3月", "上个月", "2023"]
PLACES = ["9 Elm Road", "221B Baker Street", "青禾路", "河湾路88号", "5 Pine Lane"]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(LEADS), st.sampled_from(DATES), st.sampled_from(PLACES), st.integers(0, 10**9))
def test_a_quoting_message_never_changes_what_holds_now(store, lead, date, place, n):
    speaker = f"p{n}"
    store.set(speaker, "home_address", "1 Current Street", valid_from="2026-06-01")
    before = store.as_of(speaker, "home_address")
    store.ingest(lead.format(d=date, v=place), id=f"q{n}", speaker=speaker, at=AT)
    after = store.as_of(speaker, "home_address")
    assert (after.value, after.fact) == (before.value, before.fact) == ("1 Current Street", before.fact)
    assert store.as_of(speaker, "home_address", valid_at=AT).value == "1 Current Street"
