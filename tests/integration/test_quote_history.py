"""A quoted document's content is answerable as of its own date, as history, and never current
(issue #43, item 3; docs/semantics.md "Quoted documents"). Through the store, with messages the
rule extractor reads and with hand-written ``quote`` events."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

AT = "2026-09-28T10:00:00Z"


def test_a_quoted_lease_answers_at_its_date_and_never_now(store):
    store.ingest("The 2024 lease says I live at 12 Elm St.", id="m1", speaker="lin", at=AT)
    then = store.as_of("lin", "home_address", valid_at="2024-06-01")
    assert (then.value, then.source) == ("12 Elm St", "m1~quoted")
    assert then.valid_to is not None and then.valid_to.isoformat().startswith("2026-09-28T10:00")
    assert store.as_of("lin", "home_address").value is None  # never current
    assert store.as_of("lin", "home_address", valid_at=AT).value is None
    why = store.why("lin", "home_address", valid_at="2024-06-01")
    assert (why.value, why.source, why.quoted_by) == ("12 Elm St", "m1~quoted", ["m1"])  # marked: QUOTES link
    assert why.supersedes_fact is None  # a quote supersedes nothing
    [entry] = store.history("lin", "home_address")
    assert (entry.value, entry.source, entry.valid_from.year) == ("12 Elm St", "m1~quoted", 2024)


def test_a_forwarded_memo_answers_in_its_month(store):
    store.ingest("Fwd: March memo — the deploy port is 7000", id="m2", speaker="ops", at=AT)
    then = store.as_of("ops", "port", valid_at="2026-03-15")  # the subject is the rules' choice for `port`
    assert (then.value, then.source) == ("7000", "m2~quoted")
    assert store.as_of("ops", "port").value is None


def test_a_statement_for_that_date_wins_and_a_current_fact_is_untouched(store):
    store.add_source("m0", kind="message", at="2026-05-01T09:00:00Z", text="I moved to 9 Oak Ave in Jan 2024.",
                     author="lin")
    store.set("lin", "home_address", "9 Oak Ave", valid_from="2024-01-10", source="m0")
    store.ingest("The 2024 lease says I live at 12 Elm St.", id="m1", speaker="lin", at=AT)
    # said after the document, about that time: the statement wins
    assert store.as_of("lin", "home_address", valid_at="2024-06-01").value == "9 Oak Ave"
    # before the statement's stretch, nothing direct speaks: the lease fills in the past
    assert store.as_of("lin", "home_address", valid_at="2024-01-05").value == "12 Elm St"
    now = store.as_of("lin", "home_address")
    assert (now.value, now.source) == ("9 Oak Ave", "m0")
    assert [e.value for e in store.history("lin", "home_address")] == ["12 Elm St", "9 Oak Ave"]
    # why lists the outranked quote, as conflicting; where the quote answers, it lists nothing
    why = store.why("lin", "home_address", valid_at="2024-06-01")
    assert why.source == "m0"
    assert [(q.source, q.value, q.agrees) for q in why.quotes] == [("m1~quoted", "12 Elm St", False)]
    assert store.why("lin", "home_address", valid_at="2024-01-05").quotes == []
    assert store.why("lin", "home_address").quotes == []  # now: no quote speaks
    # the same in the Python-resolved view
    assert [q.agrees for q in store.why("lin", "home_address", valid_at="2024-06-01",
                                        include_candidates=True).quotes] == [False]


def test_a_quote_that_says_what_the_statement_says_corroborates(store):
    store.add_source("m0", kind="message", at="2026-05-01T09:00:00Z", text="I've lived on Oak Ave since 2023.",
                     author="lin")
    store.set("lin", "home_address", "9 Oak Ave", valid_from="2023-01-01", source="m0")
    store.add_source("lease", kind="document", at="2024-03-01", text="Tenant address: 9 Oak Ave", author="lin")
    store.add_source("m1", kind="message", at=AT, text="the 2024 lease", author="lin")
    store.quote("m1", "lease", [{"subject": "lin", "topic": "home_address", "value": "9 Oak Ave"}])
    why = store.why("lin", "home_address", valid_at="2024-06-01")
    assert (why.value, why.source) == ("9 Oak Ave", "m0")
    assert [(q.source, q.agrees) for q in why.quotes] == [("lease", True)]


def test_an_undated_quote_claims_nothing(store):
    store.ingest("The lease says I live at 12 Elm St.", id="m3", speaker="lin", at=AT)
    assert store.history("lin", "home_address") == []


def test_a_source_quoting_one_that_is_not_older_claims_nothing(store):
    store.add_source("a", kind="email", at="2026-01-01", text="port 1")
    store.add_source("b", kind="message", at="2026-01-01", text="see a")
    store.quote("b", "a", [{"subject": "deploy", "topic": "port", "value": "1"}])
    assert store.history("deploy", "port") == []


DAYS = st.integers(1, 27)


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["A", "B", "C"]), DAYS, st.booleans()), min_size=0, max_size=3),
       st.lists(st.tuples(st.sampled_from(["A", "B", "Q"]), DAYS, DAYS), min_size=1, max_size=3),
       st.integers(0, 10**9))
def test_no_quote_ever_changes_what_as_of_answers_now(store, sets, quotes, n):
    """Direct sets (open-ended or a few days long) and quotes of older documents, on one slot:
    what ``as_of`` answers now, and the fact behind it, is what the sets alone give."""
    s = f"p{n}"
    for i, (value, d, bounded) in enumerate(sets):
        store.set(s, "home_address", value, valid_from=f"2026-02-{d:02d}",
                  valid_to=f"2026-02-{d + 1:02d}" if bounded else None)
    before = store.as_of(s, "home_address")
    for i, (value, doc, quoted) in enumerate(quotes):
        store.add_source(f"{s}-doc{i}", kind="document", at=f"2026-01-{doc:02d}", author=s)
        store.add_source(f"{s}-msg{i}", kind="message", at=f"2026-03-{quoted:02d}", author=s)
        store.quote(f"{s}-msg{i}", f"{s}-doc{i}", [{"subject": s, "topic": "home_address", "value": value}])
    after = store.as_of(s, "home_address")
    assert (after.value, after.fact, after.conflict) == (before.value, before.fact, before.conflict)
    # and each quoted document answers its own day when nothing direct was said about it
    if not sets:
        value, doc, _ = quotes[-1]
        got = store.as_of(s, "home_address", valid_at=f"2026-01-{doc:02d}T12:00:00Z")
        assert got.value is not None and got.source is not None and got.source.startswith(f"{s}-doc")
