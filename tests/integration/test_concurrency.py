"""Eight writers at once (threads and processes) on overlapping slots: nothing lost, one total
order, never two current values where one is allowed, projection == rebuild, retries apply once."""

from __future__ import annotations

import multiprocessing as mp
import threading

import pytest

from graphmem import GraphMem
from graphmem.core.config import env_config
from graphmem.store.settings import Settings

from test_rebuild import canonical_hash

# 8 writers × 1000 events under `make test-thorough`; 8 × 250 in `make test` (the ledger lock makes
# this test's time linear in the events, and 2,000 contended writes already interleave every writer).
WRITERS, EVENTS = 8, 1000 if env_config().thorough else 250
SUBJECTS, TOPICS = [f"s{i}" for i in range(20)], ["port", "office", "home_city"]  # 60 slots all writers share


def _events(writer: int) -> list[dict]:
    return [{"op": "set", "subject": SUBJECTS[i % len(SUBJECTS)], "topic": TOPICS[(i // len(SUBJECTS)) % len(TOPICS)],
             "value": f"w{writer}-{i}", "id": f"w{writer}-e{i}"}
            for i in range(EVENTS)]


# No actor: all writers count as one author, so two writes that land on the same record time (the
# store's clock never runs back, so ties happen) resolve to the later one instead of a conflict.
def _write_all(uri: str, password: str | None, tenant: str, writer: int) -> None:
    with GraphMem(Settings(uri=uri, password=password), tenant=tenant, install_schema=False) as mem:
        for e in _events(writer):
            mem.apply(e)


@pytest.mark.slow
def test_eight_concurrent_writers(store, driver, neo4j_target):
    s = neo4j_target.settings
    password = s.password.get_secret_value() if s.password else None
    tenant = store.tenant
    errors: list[BaseException] = []

    def in_thread(w: int) -> None:
        try:
            _write_all(s.uri, password, tenant, w)
        except BaseException as e:  # surfaced below: a thread's exception is otherwise lost
            errors.append(e)

    threads = [threading.Thread(target=in_thread, args=(w,)) for w in range(WRITERS // 2)]
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_write_all, args=(s.uri, password, tenant, w)) for w in range(WRITERS // 2, WRITERS)]
    for t in threads + procs:
        t.start()
    for t in threads:
        t.join()
    for p in procs:
        p.join()
        assert p.exitcode == 0
    assert not errors, errors
    events = list(store.events())
    assert len(events) == WRITERS * EVENTS, "events lost"
    assert [e["seq"] for e in events] == list(range(1, WRITERS * EVENTS + 1)), "a gap or a repeat in the ledger"
    times = [e["recorded_at"] for e in events]
    assert times == sorted(times), "record time ran back"
    # retried writes (same idempotency id) apply once
    again = [store.apply(e) for e in _events(0)[:50]]
    assert all(r.duplicate for r in again) and len(list(store.events())) == WRITERS * EVENTS
    # never two current values for a one-valued slot
    records, _, _ = driver.execute_query(
        "MATCH (e:Entity {tenant: $t})-[h:HOLDS]->() WHERE e.uid IS NOT NULL AND h.superseded_at IS NULL "
        "AND h.valid_to IS NULL RETURN e.uid AS s, h.topic AS topic, count(*) AS n", t=tenant)
    assert records and all(r["n"] == 1 for r in records), [dict(r) for r in records]
    for subject in SUBJECTS:
        for topic in TOPICS:
            a = store.as_of(subject, topic)
            last = [e for e in events if f'"subject": "{subject}"' in e["payload"] and f'"topic": "{topic}"' in e["payload"]][-1]
            assert a.value == __import__("json").loads(last["payload"])["value"]
    before = canonical_hash(driver, tenant)
    store.rebuild()
    assert canonical_hash(driver, tenant) == before
