"""The bulk path's pipeline (graphmem.store.pipeline): a batch applied ahead of its transaction,
carrying on from the batch before it while that one commits, leaves exactly what batches run one
after another leave — the same ledger (seq, hashes), the same projection — and falls back to the
plain way when another writer comes between or an event is refused."""

from __future__ import annotations

import json
import random
import uuid
from datetime import datetime, timedelta, timezone
from functools import partial

import pytest
from neo4j.exceptions import ServiceUnavailable

from graphmem import GraphMem
from graphmem.core.errors import ConnectionError_, ValidationError
from graphmem.store import ops, pipeline
from graphmem.store.queries import Call
from graphmem.store.writes import parse_bulk, unit_tx
from test_rebuild import canonical_hash

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)

def canonical(driver, tenant: str) -> tuple[str, int]:
    return canonical_hash(driver, tenant, with_tenant=False)


def one_after_another(mem: GraphMem, events: list[dict], batch_size: int) -> ops.Plan[None]:
    """The bulk load as it was before the pipeline: each batch applied inside its own transaction."""
    parsed = parse_bulk(mem.tenant, events, mem.actor)
    for start in range(0, len(parsed), batch_size):
        yield ops.Tx(partial(unit_tx, mem.tenant, parsed[start:start + batch_size], mem._clock(), None, start),
                     "apply_bulk")


def workload(seed: int, n: int = 80) -> list[dict]:
    """Sets, revokes, quotes, confirmations and retractions on a few slots, several events to a
    record time (so a slot is recomputed across batches at one record time, too)."""
    rnd = random.Random(seed)
    subjects, topics, values = ["lin", "deploy", "acme"], ["port", "city", "owner"], ["a", "b", "c", "d"]
    events: list[dict] = [{"op": "topic", "name": "tags", "cardinality": "many"},
                          {"op": "source", "id": "old-mail", "kind": "email", "at": "2020-01-01T00:00:00Z",
                           "text": "the port was 1", "author": "ops"},
                          # a later message forwarding it: a quote's claims need a cited source older than the quoting one
                          {"op": "source", "id": "fwd-mail", "kind": "message", "at": "2021-06-01T00:00:00Z",
                           "text": "Fwd: the old mail", "author": "lin"}]
    at, done = T0, set()  # refs confirmed or retracted already
    for i in range(n):
        if rnd.random() < 0.6:
            at += timedelta(hours=rnd.choice([1, 24]))
        s, t = rnd.choice(subjects), rnd.choice(topics + ["tags"])
        kind = rnd.random()
        base = {"subject": s, "topic": t, "recorded_at": at.isoformat(), "id": f"e{i}"}
        if kind < 0.6:
            vf = (T0 + timedelta(days=rnd.randint(-30, 30))).isoformat()
            authority = rnd.choice(["L1", "L2"])
            events.append({"op": "set", **base, "value": rnd.choice(values), "valid_from": vf, "ref": f"r{i}",
                           "authority": authority, "status": "candidate" if authority == "L2" else "confirmed"})
        elif kind < 0.7:
            events.append({"op": "revoke", **base})
        elif kind < 0.8:
            events.append({"op": "quote", "source": "fwd-mail", "quotes": "old-mail", "id": f"e{i}",
                           "recorded_at": at.isoformat(),
                           "claims": [{"subject": s, "topic": t, "value": rnd.choice(values)}]})
        else:  # a candidate's confirmation, or a retraction of a fact not withdrawn yet
            op = rnd.choice(["confirm", "retract"])
            refs = [e["ref"] for e in events if e.get("ref") and e["ref"] not in done
                    and (op == "retract" or e["authority"] == "L2")]
            if refs:
                ref = rnd.choice(refs)
                done.add(ref)
                events.append({"op": op, "ref": ref, "recorded_at": at.isoformat(), "id": f"e{i}"})
    return events


@pytest.fixture
def pair(neo4j_target, driver):
    """Two clients on fresh tenants with one fixed clock, dropped after the test."""
    made = [GraphMem(neo4j_target.settings, tenant=f"test-{uuid.uuid4().hex[:10]}", driver=driver,
                     clock=lambda: T0 + timedelta(days=400), install_schema=False) for _ in range(2)]
    yield made
    for m in made:
        m.drop_tenant()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_pipeline_leaves_what_batches_one_after_another_leave(pair, driver, seed):
    events = workload(seed)
    piped, plain = pair
    for e in list(events):
        try:
            parse_bulk(plain.tenant, [e])
        except ValidationError:
            events.remove(e)
    try:
        piped.apply_bulk(events, batch_size=7)
    except ValidationError:  # a refused event: both ways refuse it at the same place
        with pytest.raises(ValidationError):
            plain._run(one_after_another(plain, events, 7))
    else:
        plain._run(one_after_another(plain, events, 7))
    assert canonical(driver, piped.tenant) == canonical(driver, plain.tenant)
    assert piped.verify()["ok"]  # the hash chain holds, and the projection is what a replay gives


def test_a_writer_between_two_batches_sends_the_next_one_the_plain_way(pair, driver, monkeypatch):
    """Another client writes after batch 1 commits, while batch 2 waits with its events applied
    ahead: batch 2's transaction finds the ledger head moved and applies them anew; nothing is lost
    or applied twice."""
    piped, other = pair[0], pair[0].for_tenant(pair[0].tenant)
    plain_runs: list[int] = []
    real = pipeline.unit_tx

    def counted(*args):
        plain_runs.append(args[-1])
        return real(*args)

    monkeypatch.setattr(pipeline, "unit_tx", counted)
    events = [{"op": "set", "subject": "lin", "topic": "city", "value": f"c{i}",
               "recorded_at": (T0 + timedelta(days=i)).isoformat()} for i in range(12)]
    seen = []

    def progress(n):
        seen.append(n)
        if len(seen) == 1:
            other.set("lin", "city", "between", recorded_at=(T0 + timedelta(days=2, hours=12)).isoformat())

    results = piped.apply_bulk(events, batch_size=3, progress=progress)
    # batch 2 (events 3..5) found the head moved and went the plain way; so did batch 3, applied
    # ahead on batch 2's state; batch 4 started afresh from the ledger head, ahead again
    assert plain_runs == [3, 6]
    assert [r.seq for r in results] == [1, 2, 3] + list(range(5, 14))
    assert piped.verify()["ok"]
    assert [e["seq"] for e in piped.events()] == list(range(1, 14))
    assert piped.as_of("lin", "city").value == "c11"
    assert "between" in piped.history_values("lin", "city")


def test_a_refused_event_stops_the_load_after_the_batches_before_it(pair):
    piped = pair[0]
    events = [{"op": "set", "subject": "lin", "topic": "city", "value": f"c{i}",
               "recorded_at": (T0 + timedelta(days=i)).isoformat()} for i in range(6)]
    events.insert(4, {"op": "confirm", "ref": "no-such-fact"})
    with pytest.raises(Exception, match="event 4"):
        piped.apply_bulk(events, batch_size=3)
    assert [e["seq"] for e in piped.events()] == [1, 2, 3]  # batch 1 stays; batch 2 wrote nothing
    assert piped.verify()["ok"]


def test_no_server_for_a_read_ahead_ends_the_load_without_a_plain_retry(pair, monkeypatch):
    """A read ahead that finds no server (the driver has retried already) ends the load: the batch
    is not applied again the plain way, which would only wait as long again before failing."""
    piped = pair[0]
    plain_runs: list[int] = []
    monkeypatch.setattr(pipeline, "unit_tx", lambda *args: plain_runs.append(args[-1]) or iter(()))
    real_step = GraphMem._step
    started = []

    def step(self, s):
        if isinstance(s, ops.Start):
            started.append(s)
        elif isinstance(s, Call) and s.name in pipeline.READS_AHEAD and started:
            raise ServiceUnavailable("the server went away")  # batch 1 went behind; batch 2's reads fail
        return real_step(self, s)

    monkeypatch.setattr(GraphMem, "_step", step)
    events = [{"op": "set", "subject": f"s{i}", "topic": "city", "value": f"c{i}",
               "recorded_at": (T0 + timedelta(days=i)).isoformat()} for i in range(6)]
    with pytest.raises(ConnectionError_):
        piped.apply_bulk(events, batch_size=3)
    assert plain_runs == []
    monkeypatch.setattr(GraphMem, "_step", real_step)
    assert [e["seq"] for e in piped.events()] == [1, 2, 3]  # batch 1 committed; batch 2 wrote nothing


def test_a_transcript_in_small_batches_matches_one_batch(pair, driver, eval_dir):
    """Messages draw facts through the extractor, whose context (fact/recent) is read only after
    the batch before has committed: small batches leave what one batch leaves."""
    rows = json.loads((eval_dir / "messages.json").read_text())
    chat = [e for sc in rows for e in sc["events"] if e["op"] == "message"][:40]
    msgs = [{"id": e["id"] + f"-{i}", "speaker": e["speaker"], "text": e["text"], "at": e["at"]}
            for i, e in enumerate(sorted(chat, key=lambda e: e["at"]))]
    small, whole = pair
    small.ingest_bulk(msgs, batch_size=2, embed=False)
    whole.ingest_bulk(msgs, batch_size=500, embed=False)
    assert canonical(driver, small.tenant) == canonical(driver, whole.tenant)


def test_the_async_client_runs_the_pipeline_too(neo4j_target, driver, pair):
    """The async client starts a batch's transaction as a task and goes on with the next batch."""
    import asyncio

    from graphmem.store.aio import AsyncGraphMem

    events = workload(4)
    plain = pair[1]

    async def go() -> str:
        async with AsyncGraphMem(neo4j_target.settings, tenant=f"test-{uuid.uuid4().hex[:10]}",
                                 clock=lambda: T0 + timedelta(days=400)) as mem:
            await mem.apply_bulk(events, batch_size=5)
            assert (await mem.verify())["ok"]
            return mem.tenant

    tenant = asyncio.run(go())
    try:
        plain._run(one_after_another(plain, events, 5))
        assert canonical(driver, tenant) == canonical(driver, plain.tenant)
    finally:
        plain.for_tenant(tenant).drop_tenant()


def test_a_unit_past_the_carry_limit_starts_the_next_batch_afresh(pair, driver, monkeypatch):
    """A long import does not carry an ever larger state: past CARRY_LIMIT the next batch reads from
    the ledger head again (after the batch behind commits), with the same outcome."""
    peeks: list[str] = []
    real = pipeline.projection.UnitOfWork.ahead

    def counted(*args):
        peeks.append(args[0])
        return real(*args)

    monkeypatch.setattr(pipeline, "CARRY_LIMIT", 10)
    monkeypatch.setattr(pipeline.projection.UnitOfWork, "ahead", counted)
    events = workload(5)
    piped, plain = pair
    piped.apply_bulk(events, batch_size=4)
    plain._run(one_after_another(plain, events, 4))
    assert len(peeks) > 3  # started afresh more than once
    assert canonical(driver, piped.tenant) == canonical(driver, plain.tenant)
