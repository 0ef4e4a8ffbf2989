"""Defects found by probing graphmem as an attacker and as a crash would (issue #45, items 4-7):
each input below once escaped as an untyped exception (a traceback) or was silently accepted.
Now each is a typed ``ValidationError`` (CLI: one ``Error:`` line, exit 1) and writes nothing —
checked against a digest of the tenant's projection and ledger taken before the call."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest

from graphmem import GraphMem
from graphmem.core.errors import ValidationError

from test_rebuild import canonical_hash

EXE = str(Path(sys.executable).parent / "graphmem")


def _deep(levels: int) -> dict:
    value: dict = {"x": 1}
    for _ in range(levels):
        value = {"x": value}
    return value


BAD_EVENTS = {
    "year 0001": {"op": "set", "subject": "a", "topic": "b", "value": "c", "valid_from": "0001-01-01"},
    "year 0001 east of UTC": {"op": "set", "subject": "a", "topic": "b", "value": "c",
                              "valid_from": "0001-01-01T00:00:00+01:00"},
    "year 9999": {"op": "set", "subject": "a", "topic": "b", "value": "c", "valid_from": "9999-12-31T23:00:00-05:00"},
    "record time year 9999": {"op": "set", "subject": "a", "topic": "b", "value": "c",
                              "recorded_at": "9999-12-31T00:00:00Z"},
    "deep playbook detail": {"op": "playbook", "action": "draft", "target": "x", "detail": _deep(3000)},
    "deep quote claims": {"op": "quote", "source": "s2", "quotes": "s1",
                          "claims": [{"subject": "a", "topic": "b", "value": _deep(3000)}]},
    "NaN value": {"op": "set", "subject": "a", "topic": "b", "value": float("nan")},
    "NaN in working detail": {"op": "working", "action": "checkpoint", "session": "s", "detail": {"v": float("nan")}},
    "NUL in playbook detail": {"op": "playbook", "action": "draft", "target": "x", "detail": {"v": "a\x00b"}},
    "huge topic TTL": {"op": "topic", "name": "otp", "ttl_seconds": 10 ** 30},
    "TTL of millennia": {"op": "topic", "name": "otp", "ttl_seconds": 10 ** 12},
}


@pytest.mark.parametrize("name", sorted(BAD_EVENTS))
def test_bad_event_is_a_typed_error_and_writes_nothing(store, driver, name):
    store.set("lin", "home", "Qinghe Rd", recorded_at="2026-01-01T00:00:00Z")
    before = canonical_hash(driver, store.tenant)
    with pytest.raises(ValidationError):
        store.apply(BAD_EVENTS[name])
    assert canonical_hash(driver, store.tenant) == before


def test_deeply_nested_json_text_is_a_typed_error(store):
    text = '{"op": "set", "subject": "a", "topic": "b", "value": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(ValidationError, match="nested"):
        store.apply(text)
    assert store.events_page(after=0, limit=5) == []


@pytest.mark.parametrize("when", ["0001-01-01", "0001-01-01T00:00:00+05:00", "9999-12-31"])
def test_out_of_range_read_times_are_typed(store, when):
    with pytest.raises(ValidationError, match="out of range"):
        store.as_of("lin", "home", valid_at=when)


def test_a_topic_with_a_century_ttl_stays_writable(store):
    store.apply({"op": "topic", "name": "otp", "ttl_seconds": 100 * 365 * 86_400})
    store.set("lin", "otp", "1234")
    assert store.as_of("lin", "otp").value == "1234"


@pytest.mark.parametrize("tenant", ["ab\ud800", "ab\x00", "a" * 306, "", "   "])
def test_tenant_names_are_validated_like_ids(neo4j_target, driver, tenant):
    with pytest.raises(ValidationError, match="tenant"):
        GraphMem(neo4j_target.settings, tenant=tenant, driver=driver, install_schema=False)


def test_checkpoint_state_and_claims_are_plain_json(store, driver):
    wm = store.working("s1")
    wm.add("a first turn")
    before = canonical_hash(driver, store.tenant)
    for state in ({"a": float("nan")}, {"a": float("inf")}, {"a": "x\x00y"}, {"a": "\ud800"}, _deep(3000),
                  {"a": object()}):
        with pytest.raises(ValidationError):
            wm.checkpoint(state)
    with pytest.raises(ValidationError):
        wm.add("a decision", type="decision", claim={"subject": "a", "topic": "b", "value": _deep(3000)})
    with pytest.raises(ValidationError):
        wm.add("a turn with a NUL\x00")
    assert canonical_hash(driver, store.tenant) == before


def test_apply_many_validates_every_event_before_writing(store, driver):
    before = canonical_hash(driver, store.tenant)
    with pytest.raises(ValidationError, match="event 2"):
        store.apply_many([{"op": "set", "subject": "m", "topic": "n", "value": "1"},
                          {"op": "set", "subject": "m", "topic": "k", "value": "2"},
                          {"op": "set", "subject": "m"}])
    assert canonical_hash(driver, store.tenant) == before
    assert store.as_of("m", "n").value is None


def test_apply_many_says_how_many_were_applied_when_the_store_refuses(store):
    with pytest.raises(ValidationError, match="^1 applied; event 1 refused"):
        store.apply_many([{"op": "set", "subject": "m", "topic": "n", "value": "1", "recorded_at": "2026-02-01T00:00:00Z"},
                          {"op": "set", "subject": "m", "topic": "n", "value": "2", "recorded_at": "2026-01-01T00:00:00Z"}])
    assert store.as_of("m", "n").value == "1"


def test_first_promotions_of_one_workflow_at_once_both_land(store):
    pb = store.playbooks
    pb.record_outcome("deploy-db", ["edit prod config by hand", "restart service"], "failure", ["E1045"])
    card = pb.record_outcome("deploy-db", ["run migrations", "restart service"], "success")
    barrier, results, errors = threading.Barrier(4), [], []

    def promote(i: int) -> None:
        barrier.wait()
        try:
            results.append(pb.request_promotion(
                card["uid"], workflow="deploy-db", owner="alice", text=f"Run migrations ({i}).", scenario="deploy-db",
                inputs=["release"], outputs=["report"], tool_permissions=["shell"],
                validation_rules=["must: run migrations", "output: report"]))
        except Exception as e:  # noqa: BLE001 - the test reports whatever escaped
            errors.append(e)

    threads = [threading.Thread(target=promote, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(results) == 4
    assert len({r["version"] for r in results}) == 4
    assert [w["name"] for w in pb.workflows()] == ["deploy-db"]


# -- the CLI: one Error: line, exit 1, nothing written -------------------------------------------------

def _cli(cli_env, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([EXE, *args], capture_output=True, env=cli_env, timeout=120, input=stdin)


def _one_error_line(r: subprocess.CompletedProcess[bytes]) -> str:
    err = r.stderr.decode("utf-8", "replace").strip()
    assert r.returncode == 1, (r.returncode, r.stdout, err)
    assert "Traceback" not in err and len(err.splitlines()) == 1 and err.startswith("Error:"), err
    return err


def test_cli_non_utf8_file_to_ingest_bulk_and_apply(store, driver, cli_env, tmp_path):
    bad = tmp_path / "latin1.jsonl"
    bad.write_bytes(json.dumps({"id": "m1", "speaker": "lin", "text": "caf\u00e9"}, ensure_ascii=False).encode("latin-1") + b"\n")
    before = canonical_hash(driver, store.tenant)
    for verb in ("ingest-bulk", "apply"):
        assert "not UTF-8" in _one_error_line(_cli(cli_env, verb, str(bad), "-t", store.tenant))
    assert canonical_hash(driver, store.tenant) == before


def test_cli_apply_refuses_a_malformed_line_before_writing(store, driver, cli_env, tmp_path):
    f = tmp_path / "events.jsonl"
    f.write_text(json.dumps({"op": "set", "subject": "m", "topic": "n", "value": "1"}) + "\n"
                 + json.dumps({"op": "set", "subject": "m"}) + "\n")
    before = canonical_hash(driver, store.tenant)
    assert "event 1" in _one_error_line(_cli(cli_env, "apply", str(f), "-t", store.tenant))
    assert canonical_hash(driver, store.tenant) == before


def test_cli_deep_json_and_bad_tenants_are_one_error_line(store, driver, cli_env, tmp_path):
    f = tmp_path / "deep.jsonl"
    f.write_text('{"op": "set", "subject": "a", "topic": "b", "value": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    before = canonical_hash(driver, store.tenant)
    _one_error_line(_cli(cli_env, "apply", str(f), "-t", store.tenant))
    _one_error_line(_cli(cli_env, "working", "checkpoint", "s1", '{"x": ' * 3000 + "1" + "}" * 3000, "-t", store.tenant))
    _one_error_line(_cli(cli_env, "working", "checkpoint", "s1", '{"a": NaN}', "-t", store.tenant))
    _one_error_line(_cli(cli_env, "as-of", "lin", "home", "--valid-at", "0001-01-01", "-t", store.tenant))
    assert canonical_hash(driver, store.tenant) == before
    _one_error_line(_cli(cli_env, "as-of", "lin", "home", "-t", "a" * 306))
    env = dict(cli_env, PYTHONIOENCODING="utf-8")
    r = subprocess.run([EXE, "as-of", "lin", "home", "-t", "ab\x01"], capture_output=True, env=env, timeout=120)
    assert r.returncode in (0, 1) and b"Traceback" not in r.stderr  # a control character is a name like others


def test_cli_import_reports_a_deeply_nested_line_as_a_reject(store, cli_env, tmp_path):
    f = tmp_path / "events.jsonl"
    f.write_text(json.dumps({"op": "set", "subject": "m", "topic": "n", "value": "1"}) + "\n"
                 + '{"op": "set", "value": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    r = _cli(cli_env, "import", str(f), "--json", "-t", store.tenant)
    report = json.loads(r.stdout)
    assert report["rejected"] == 1 and "nested" in report["rejects"][0]["reason"], report
    assert store.as_of("m", "n").value == "1"
