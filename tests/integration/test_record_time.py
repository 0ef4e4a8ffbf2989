"""Record time comes from the server's clock (issue #45): a client whose clock runs ahead cannot
stamp the ledger in the future, and a ``recorded_at`` in the future is refused on every way in
(client, apply, bulk import, CLI) — since record time never runs back, one such write would hide
every later write of the tenant from "now" for good. A past ``recorded_at`` (an import) stays.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from graphmem import GraphMem, TemporalError
from graphmem.store.projection.unit_of_work import CLOCK_SKEW

EXE = str(Path(sys.executable).parent / "graphmem")


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _fast(neo4j_target, driver, tenant: str, ahead: timedelta) -> GraphMem:
    """A client of ``tenant`` whose clock runs ``ahead``."""
    return GraphMem(neo4j_target.settings, tenant=tenant, driver=driver, clock=lambda: _now() + ahead,
                    install_schema=False)


def test_a_client_ten_minutes_fast_does_not_hide_another_clients_write(store, neo4j_target, driver):
    fast = _fast(neo4j_target, driver, store.tenant, timedelta(minutes=10))
    first = fast.set("deploy", "port", "8000")
    assert first.recorded_at <= _now()  # the server's clock, not the fast one
    store.set("deploy", "port", "9000")  # a correct clock, a moment later
    assert store.as_of("deploy", "port").value == "9000"  # seen at once, not in ten minutes
    assert fast.as_of("deploy", "port").value == "9000"
    # the fast client's erase tombstone is not stamped ahead either
    fast.erase(subject="nobody-at-all", actor="dpo")
    store.set("deploy", "port", "9100")
    assert store.as_of("deploy", "port").value == "9100"
    assert all(e["recorded_at"] <= _now() for e in store.events())


def test_a_future_recorded_at_is_refused_and_writes_nothing(store):
    store.set("deploy", "port", "8000")
    head = len(list(store.events()))
    future = (_now() + timedelta(minutes=10)).isoformat()
    with pytest.raises(TemporalError, match="in the future"):
        store.set("deploy", "port", "6666", recorded_at=future)
    with pytest.raises(TemporalError, match="in the future"):
        store.apply({"op": "set", "subject": "deploy", "topic": "port", "value": "6666", "recorded_at": future})
    with pytest.raises(TemporalError, match="in the future"):
        store.apply_bulk([{"op": "set", "subject": "a", "topic": "port", "value": "1"},
                          {"op": "set", "subject": "deploy", "topic": "port", "value": "6666",
                           "recorded_at": future}])
    assert len(list(store.events())) == head
    store.set("deploy", "port", "9000")
    assert store.as_of("deploy", "port").value == "9000"


def test_a_recorded_at_within_the_skew_is_taken_as_the_servers_now(store):
    ahead = _now() + CLOCK_SKEW / 2
    r = store.set("deploy", "port", "8000", recorded_at=ahead.isoformat())
    assert r.recorded_at <= _now() < ahead
    store.set("deploy", "port", "9000")
    assert store.as_of("deploy", "port").value == "9000"


def test_a_past_recorded_at_still_imports(store):
    store.apply_bulk([{"op": "set", "subject": "lin", "topic": "home", "value": "Qinghe Rd",
                       "recorded_at": "2026-09-01T00:00:00Z"},
                      {"op": "set", "subject": "lin", "topic": "home", "value": "Hewan Rd",
                       "recorded_at": "2026-09-25T00:00:00Z", "valid_from": "2026-09-20"}])
    assert store.as_of("lin", "home", valid_at="2026-09-22", known_at="2026-09-21").value == "Qinghe Rd"
    assert store.as_of("lin", "home", valid_at="2026-09-22").value == "Hewan Rd"


def test_cli_set_and_import_refuse_a_future_recorded_at(store, cli_env, tmp_path):
    future = (_now() + timedelta(hours=1)).isoformat()
    out = subprocess.run([EXE, "set", "deploy", "port", "6666", "--recorded-at", future, "-t", store.tenant],
                         capture_output=True, text=True, env=cli_env, timeout=120)
    assert out.returncode == 1 and "in the future" in out.stderr, out.stderr
    events = tmp_path / "events.jsonl"
    events.write_text(json.dumps({"op": "set", "subject": "deploy", "topic": "port", "value": "6666",
                                  "recorded_at": future}) + "\n")
    for verb in ("apply", "import"):  # apply stops with an error, import reports the event as a reject
        out = subprocess.run([EXE, verb, str(events), "-t", store.tenant], capture_output=True, text=True,
                             env=cli_env, timeout=120)
        assert "in the future" in out.stderr + out.stdout, (verb, out.stderr, out.stdout)
        assert out.returncode != 0 or verb == "import"
    assert list(store.events()) == []
    store.set("deploy", "port", "9000")
    assert store.as_of("deploy", "port").value == "9000"
