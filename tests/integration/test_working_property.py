"""Property: working-memory items never cross tenants or sessions, whatever the interleaving."""

from __future__ import annotations

import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import GraphMem

SESSIONS = ["a", "b", "a/b", "A"]
steps = st.lists(st.tuples(st.integers(0, 1), st.sampled_from(SESSIONS),
                           st.text(alphabet="abcxyz 河湾路", min_size=1, max_size=30).filter(str.strip)),
                 min_size=1, max_size=8)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=steps)
def test_items_stay_in_their_tenant_and_session(neo4j_target, driver, plan):
    tenants = [f"test-{uuid.uuid4().hex[:10]}" for _ in range(2)]
    mems = [GraphMem(neo4j_target.settings, tenant=t, driver=driver, install_schema=False) for t in tenants]
    expected: dict[tuple[int, str], list[str]] = {}
    try:
        for n, (t, session, text) in enumerate(plan):
            item = f"i{n}"
            mems[t].working(session, budget_tokens=100_000).add(text, id=item)
            expected.setdefault((t, session), []).append(item)
        for t in range(2):
            for session in SESSIONS:
                got = [i.id for i in mems[t].working(session).items(include_evicted=True)]
                assert got == expected.get((t, session), []), (t, session)
                for i in mems[t].working(session).items():
                    assert i.session == session
            listed = {r["session"] for r in mems[t].working_sessions()}
            assert listed == {s for (tt, s) in expected if tt == t}
    finally:
        for m in mems:
            m.drop_tenant()


WORDS = ["migration", "snapshot", "traffic", "replay", "billing", "cluster", "河湾路", "hotel", "courier"]
turns = st.lists(st.tuples(st.sampled_from(["mei", "bob"]), st.integers(4, 40), st.sampled_from(["compress", "evict"])),
                 min_size=2, max_size=12)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=turns)
def test_erase_only_shrinks_the_working_set_and_keeps_the_budget(neo4j_target, driver, plan):
    """Whatever was compressed or evicted before, erasing a subject leaves a working set that is a
    subset of the one before (nothing an erased summary replaced comes back), holds none of the
    subject's items, fits the budget, and is what a replay of the ledger gives."""
    mem = GraphMem(neo4j_target.settings, tenant=f"test-{uuid.uuid4().hex[:10]}", driver=driver,
                   install_schema=False)
    try:
        w = mem.working("s", budget_tokens=200, strategy=plan[0][2])
        for n, (author, words, _) in enumerate(plan):
            text = f"{author} turn {n}. " + " ".join(WORDS[(n + k) % len(WORDS)] for k in range(words)) + "."
            w.add(text, id=f"{author[0]}{n}", author=author)
        before = {i.id for i in w.items()}
        mem.erase(subject="mei", reason="asked")
        after = w.items()
        assert {i.id for i in after} <= before
        assert not any(i.author == "mei" for i in w.items(include_evicted=True))
        assert sum(i.tokens for i in after) <= 200
        mem.rebuild()
        assert [i.id for i in w.items()] == [i.id for i in after]
    finally:
        mem.drop_tenant()
