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
