"""Adversarial property tests: two tenants never see each other's data through any read API (recall included), and
random (mostly malformed) payloads get a typed error or apply, leaving the store's invariants."""

from __future__ import annotations

import json
import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.errors import GraphMemError

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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
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


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
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
