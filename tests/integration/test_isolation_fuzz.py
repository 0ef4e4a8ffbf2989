"""Adversarial property tests: two tenants never see each other's data through any read API (recall included), and
random (mostly malformed) payloads get a typed error or apply, leaving the store's invariants."""

from __future__ import annotations

import json
import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.examples_budget import examples

from graphmem.core.errors import GraphMemError

from test_rebuild import canonical_hash

SUBJECTS = ["lin", "bob"]
TOPICS = ["home", "port"]


@st.composite
def tenant_ops(draw):
    ops = []
    for i in range(draw(st.integers(1, 8))):
        ops.append((draw(st.sampled_from("AB")), draw(st.sampled_from(["set", "revoke", "source", "quote", "message"])),
                    draw(st.sampled_from(SUBJECTS)), draw(st.sampled_from(TOPICS)), i))
    return ops


def _apply(mem, tag: str, op: str, subject: str, topic: str, i: int) -> None:
    rec = f"2026-01-{i + 1:02d}T00:00:00Z"
    if op == "set":
        mem.set(subject, topic, f"{tag}-value-{i}", recorded_at=rec, actor=f"{tag}-actor", reason=f"{tag}-reason")
    elif op == "revoke":
        mem.revoke(subject, topic, recorded_at=rec)
    elif op == "source":
        mem.add_source(f"{tag}-src-{i}", kind="message", at=rec, text=f"{tag}-text-{i}", author=f"{tag}-author")
        mem.set(subject, "managed_by", object=f"{tag}-boss-{i}", source=f"{tag}-src-{i}", recorded_at=rec)
    elif op == "message":  # said, not (necessarily) a fact: a recall item of its own
        mem.ingest(f"the {tag}-msg-{i} went fine, port {topic}", id=f"{tag}-m-{i}", speaker=subject, at=rec)
    else:
        mem.add_source(f"{tag}-old-{i}", kind="email", at="2025-01-01", text=f"{tag}-old", author=subject)
        mem.add_source(f"{tag}-new-{i}", kind="message", at=rec, text=f"{tag}-new", author=subject)
        mem.quote(f"{tag}-new-{i}", f"{tag}-old-{i}", [{"subject": subject, "topic": topic, "value": f"{tag}-quoted-{i}"}],
                  recorded_at=rec)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(ops=tenant_ops())
def test_no_read_ever_crosses_tenants(store, ops):
    run = uuid.uuid4().hex[:6]
    a, b = store.for_tenant(f"{store.tenant}-{run}-A"), store.for_tenant(f"{store.tenant}-{run}-B")
    try:
        for tag, op, subject, topic, i in ops:
            _apply(a if tag == "A" else b, tag, op, subject, topic, i)
        for mem, other in ((a, "B-"), (b, "A-")):
            seen = []
            for subject in SUBJECTS:
                for topic in TOPICS + ["managed_by"]:
                    for t in ("2025-06-01", "2026-01-03", None):
                        seen.append(mem.as_of(subject, topic, valid_at=t).model_dump_json())
                        seen.append(mem.as_of(subject, topic, valid_at=t, include_candidates=True).model_dump_json())
                        seen.append(mem.why(subject, topic, valid_at=t).model_dump_json())
                    seen.append(json.dumps([h.model_dump(mode="json") for h in mem.history(subject, topic)]))
                    seen.append(json.dumps([x.__dict__ for x in mem.assertions(subject, topic)], default=str))
                seen.append(mem.path(subject, ["managed_by", "home"]).model_dump_json())
                # recall: subject-scoped and tenant-wide, with the other tenant's words in the task
                task = f"{subject} home port managed_by {other}value {other}text {other}quoted {other}boss {other}msg"
                seen.append(mem.context(task, subject=subject, include_candidates=True).model_dump_json(exclude={"task"}))
                seen.append(mem.context(task, valid_at="2026-01-03").model_dump_json(exclude={"task"}))
                seen.append(mem.summary(subject).model_dump_json())
                seen.append(mem.user_page(subject))
            seen.append(json.dumps(list(mem.events()), default=str))
            seen.append(json.dumps(mem.audit(), default=str))
            leaks = [s for s in seen if other in s]
            assert not leaks, leaks[0][:300]
    finally:
        a.drop_tenant()
        b.drop_tenant()


payload = st.one_of(
    st.none(), st.integers(), st.text(max_size=30), st.lists(st.integers(), max_size=3),
    st.dictionaries(st.sampled_from(["op", "subject", "topic", "value", "object", "valid_from", "valid_to",
                                     "recorded_at", "authority", "status", "ref", "source", "env", "session",
                                     "id", "kind", "at", "text", "quotes", "claims", "effective", "x"]),
                    st.one_of(st.sampled_from(["set", "revoke", "retract", "quote", "source", "confirm", "reject",
                                               "topic", "L0", "L1", "L9", "candidate", "2026-01-01", "2025-13-40",
                                               "", "\x00", "a" * 300, "\udc80"]),
                              st.integers(), st.none(), st.booleans(), st.text(max_size=20)),
                    max_size=8))


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(payloads=st.lists(payload, min_size=1, max_size=4))
def test_fuzzed_payloads_error_cleanly_and_keep_invariants(store, driver, payloads):
    mem = store.for_tenant(f"{store.tenant}-{uuid.uuid4().hex[:6]}")
    try:
        for p in payloads:
            try:
                mem.apply(p)
            except GraphMemError:
                pass  # typed, expected
        events = list(mem.events())
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        if events:
            before = canonical_hash(driver, mem.tenant)
            mem.rebuild()
            assert canonical_hash(driver, mem.tenant) == before
    finally:
        mem.drop_tenant()


# -- the write side: a client bound to tenant A can change nothing in tenant B ------------------------

WRITES = {
    # name: (call on a client, with the victim tenant passed as a keyword or as an event field)
    "set/kw": lambda m, v, i: m.set("victim", "port", f"666-{i}", tenant=v),
    "set/event": lambda m, v, i: m.apply({"op": "set", "subject": "victim", "topic": "port", "value": f"666-{i}",
                                          "tenant": v}),
    "apply_many": lambda m, v, i: m.apply_many([{"op": "set", "subject": "victim", "topic": "port",
                                                 "value": f"666-{i}", "tenant": v}]),
    "apply_bulk": lambda m, v, i: m.apply_bulk([{"op": "set", "subject": "victim", "topic": "port",
                                                 "value": f"666-{i}"},
                                                {"op": "revoke", "subject": "victim", "topic": "port", "tenant": v}]),
    "revoke": lambda m, v, i: m.revoke("victim", "port", tenant=v),
    "retract": lambda m, v, i: m.retract("r1", tenant=v),
    "confirm": lambda m, v, i: m.confirm("r1", tenant=v),
    "reject": lambda m, v, i: m.reject("r1", tenant=v),
    "add_source": lambda m, v, i: m.add_source(f"s{i}", kind="message", at="2026-01-01", text="x", tenant=v),
    "declare_topic": lambda m, v, i: m.declare_topic("port", "many", tenant=v),
    "quote": lambda m, v, i: m.quote("s-new", "s-old", [], tenant=v),
    "ingest": lambda m, v, i: m.ingest("I moved to Hewan Rd.", id=f"m{i}", speaker="victim", tenant=v),
    "erase": lambda m, v, i: m.erase(subject="victim", reason="attack", tenant=v),
    "sweep": lambda m, v, i: m.sweep(tenant=v),
    "rebuild": lambda m, v, i: m.rebuild(tenant=v),
    "drop_tenant": lambda m, v, i: m.drop_tenant(tenant=v),
    "apply_user_page": lambda m, v, i: m.apply_user_page("victim", "# victim\n", tenant=v),
    "as_of": lambda m, v, i: m.as_of("victim", "port", tenant=v),
    "history": lambda m, v, i: m.history("victim", "port", tenant=v),
    "context": lambda m, v, i: m.context("victim port", tenant=v),
    "summary": lambda m, v, i: m.summary("victim", tenant=v),
    "audit": lambda m, v, i: m.audit(tenant=v),
}


def _victim(store, run: str):
    victim = store.for_tenant(f"{store.tenant}-{run}-victim")
    victim.add_source("s-old", kind="email", at="2025-01-01", text="old", author="victim")
    victim.add_source("s-new", kind="message", at="2026-01-02", text="new", author="victim")
    victim.set("victim", "port", "8000", ref="r1", status="candidate", recorded_at="2026-01-03T00:00:00Z")
    victim.set("victim", "port", "8001", recorded_at="2026-01-03T00:00:00Z")
    return victim


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(calls=st.lists(st.sampled_from(sorted(WRITES)), min_size=1, max_size=6))
def test_no_write_ever_crosses_tenants(store, driver, calls):
    from graphmem.core.errors import TenantError

    run = uuid.uuid4().hex[:6]
    victim = _victim(store, run)
    attacker = store.for_tenant(f"{store.tenant}-{run}-attacker")
    try:
        before = canonical_hash(driver, victim.tenant)
        for i, name in enumerate(calls):
            try:
                WRITES[name](attacker, victim.tenant, i)
            except TenantError:
                pass
            else:
                raise AssertionError(f"{name} with another tenant was not refused")
        assert canonical_hash(driver, victim.tenant) == before
        assert canonical_hash(driver, attacker.tenant)[1] == 0  # and nothing landed in the attacker's either
        assert victim.as_of("victim", "port").value == "8001"
    finally:
        victim.drop_tenant()
        attacker.drop_tenant()


def test_no_write_crosses_tenants_through_the_async_client(neo4j_target, store, driver):
    import asyncio

    from graphmem.store.aio import AsyncGraphMem
    from graphmem.core.errors import TenantError

    victim = _victim(store, uuid.uuid4().hex[:6])
    before = canonical_hash(driver, victim.tenant)

    async def go() -> list[str]:
        refused = []
        async with AsyncGraphMem(neo4j_target.settings, tenant=f"{victim.tenant}-attacker") as mem:
            for i, name in enumerate(sorted(WRITES)):
                try:
                    await WRITES[name](mem, victim.tenant, i)
                except TenantError:
                    refused.append(name)
            await mem.drop_tenant()
        return refused
    try:
        assert asyncio.run(go()) == sorted(WRITES)
        assert canonical_hash(driver, victim.tenant) == before
    finally:
        victim.drop_tenant()


def test_no_write_crosses_tenants_through_the_cli(neo4j_target, store, driver, tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    victim = _victim(store, uuid.uuid4().hex[:6])
    attacker = f"{victim.tenant}-attacker"
    before = canonical_hash(driver, victim.tenant)
    env = dict(os.environ, NEO4J_URI=neo4j_target.settings.uri)
    if neo4j_target.settings.password is not None:
        env["NEO4J_PASSWORD"] = neo4j_target.settings.password.get_secret_value()
    exe = str(Path(sys.executable).parent / "graphmem")
    events = tmp_path / "events.jsonl"
    events.write_text(json.dumps({"op": "set", "subject": "victim", "topic": "port", "value": "666",
                                  "tenant": victim.tenant}) + "\n")
    try:
        r = subprocess.run([exe, "apply", str(events), "--tenant", attacker], capture_output=True, text=True,
                           env=env, timeout=120)
        assert r.returncode == 1 and "bound to tenant" in r.stderr, (r.stdout, r.stderr)
        r = subprocess.run([exe, "import", str(events), "--json", "--tenant", attacker], capture_output=True,
                           text=True, env=env, timeout=120)  # an import reports its rejects and goes on
        report = json.loads(r.stdout)
        assert report["rejected"] == 1 and "bound to tenant" in report["rejects"][0]["reason"], r.stdout
        assert canonical_hash(driver, victim.tenant) == before
    finally:
        victim.drop_tenant()
        store.for_tenant(attacker).drop_tenant()


def test_no_write_crosses_tenants_through_mcp(neo4j_target, store, driver):
    """The MCP tools take no tenant: one slipped into the arguments changes nothing in that tenant."""
    import os
    import sys
    from pathlib import Path

    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    victim = _victim(store, uuid.uuid4().hex[:6])
    attacker = f"{victim.tenant}-attacker"
    before = canonical_hash(driver, victim.tenant)
    env = dict(os.environ, NEO4J_URI=neo4j_target.settings.uri)
    if neo4j_target.settings.password is not None:
        env["NEO4J_PASSWORD"] = neo4j_target.settings.password.get_secret_value()
    params = StdioServerParameters(command=str(Path(sys.executable).parent / "graphmem"),
                                   args=["mcp", "--tenant", attacker, "--user", "mallory"], env=env)
    calls = [("set_fact", {"subject": "victim", "topic": "port", "value": "666"}),
             ("revoke", {"subject": "victim", "topic": "port"}),
             ("remember", {"text": "I moved to Hewan Rd.", "speaker": "victim", "message_id": "m1"}),
             ("forget", {"subject": "victim", "reason": "attack"})]

    async def go() -> None:
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                for name, args in calls:
                    await session.call_tool(name, {**args, "tenant": victim.tenant})
    try:
        anyio.run(go)
        assert canonical_hash(driver, victim.tenant) == before
    finally:
        victim.drop_tenant()
        store.for_tenant(attacker).drop_tenant()
