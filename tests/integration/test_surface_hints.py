"""Typos are errors with a hint, not silent empty answers (issue #44): a tenant with no events, a
topic the tenant never used — the CLI as a subprocess; episodes(who=…) in any case; `graphmem
working close s1 success` with the outcome given positionally."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from graphmem import NotFoundError
from graphmem.store.hints import check_read

EXE = str(Path(sys.executable).parent / "graphmem")


def _run(cli_env, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=cli_env, timeout=120)


def _refused(cli_env, *args: str) -> str:
    out = _run(cli_env, *args)
    assert out.returncode == 1 and out.stdout == "", (args, out.stdout, out.stderr)
    assert out.stderr.startswith("Error: ") and len(out.stderr.strip().splitlines()) == 1, out.stderr
    return out.stderr


def test_a_misspelt_tenant_is_an_error_naming_the_close_one(store, cli_env):
    store.set("lin", "home_address", "Hewan Rd")
    t = store.tenant
    err = _refused(cli_env, "as-of", "lin", "home_address", "-t", t + "x")
    assert f"no events in tenant '{t}x'" in err and f"did you mean '{t}'?" in err
    far = f"nothing-like-it-{uuid.uuid4().hex[:6]}"
    err = _refused(cli_env, "search", "where does lin live", "-t", far)
    assert f"no events in tenant '{far}'" in err and "tenants with events:" in err
    for args in (["facts", "lin"], ["candidates"], ["context", "where does lin live"], ["episodes"],
                 ["history", "lin", "home_address"]):
        assert "no events in tenant" in _refused(cli_env, *args, "-t", far), args
    assert json.loads(_run(cli_env, "as-of", "lin", "home_address", "-t", t, "--json").stdout)["value"] == "Hewan Rd"


def test_a_misspelt_topic_is_an_error_with_the_closest(store, cli_env):
    store.set("lin", "home_address", "Hewan Rd")
    t = store.tenant
    assert "has no topic 'home_adress'; did you mean home_address?" in _refused(
        cli_env, "as-of", "lin", "home_adress", "-t", t)
    assert "did you mean home_address?" in _refused(cli_env, "why", "lin", "Home_Adress", "-t", t)
    assert "its topics: home_address" in _refused(cli_env, "history", "lin", "colour", "-t", t)
    assert "did you mean home_address?" in _refused(cli_env, "path", "lin", "home_adres", "-t", t)
    # a known topic another subject lacks is an answer: nothing holds
    out = _run(cli_env, "as-of", "mel", "home_address", "-t", t, "--json")
    assert out.returncode == 0 and json.loads(out.stdout).get("value") is None, out.stderr


def test_a_client_bound_to_a_tenant_learns_no_other_tenant(store):
    store.set("lin", "home_address", "Hewan Rd")
    other = store.for_tenant(f"empty-{uuid.uuid4().hex[:8]}")
    with pytest.raises(NotFoundError) as err:
        other._run(check_read(other.tenant, []))  # list_tenants defaults to False
    assert str(err.value).startswith(f"no events in tenant '{other.tenant}'")
    assert store.tenant not in str(err.value) and "tenants with events" not in str(err.value)
    assert err.value.kind == "tenant"


def test_episodes_match_who_in_any_case(store):
    store.ingest_bulk([{"id": "D1:3", "speaker": "Caroline", "at": "2023-05-08T13:56:00Z",
                        "text": "I went to a LGBTQ support group yesterday and it was so powerful."}])
    exact = store.episodes(who="Caroline")
    assert exact and [e.uid for e in store.episodes(who="caroline")] == [e.uid for e in exact]
    assert [e.uid for e in store.episodes(who="CAROLINE", since="2023-05-01", until="2023-06-01")] == \
        [e.uid for e in exact]


def test_working_close_takes_the_outcome_positionally(store, cli_env):
    t = store.tenant
    assert _run(cli_env, "working", "add", "s1", "checked the deploy logs", "-t", t).returncode == 0
    assert "two outcomes" in _refused(cli_env, "working", "close", "s1", "success", "--outcome", "failure", "-t", t)
    assert "give the outcome" in _refused(cli_env, "working", "close", "s1", "-t", t)
    out = _run(cli_env, "working", "close", "s1", "success", "--task", "deploy", "-t", t, "--json")
    assert out.returncode == 0, out.stderr
    assert [s["session"] for s in store.working_sessions(status="closed")] == ["s1"]


def test_the_library_says_why_an_answer_is_empty(store, neo4j_target, driver):
    """A library or MCP user is told in the answer's notes what the command line refuses with a hint;
    an answer that is empty for a real reason carries no such note, and no other tenant is named."""
    from graphmem import GraphMem

    store.set("lin", "home_address", "Maple Street", valid_from="2026-01-01")
    typo = store.as_of("lin", "home_adress")
    assert typo.value is None and any("did you mean home_address" in n for n in typo.notes), typo.notes
    before = store.as_of("lin", "home_address", valid_at="2025-06-01")  # nothing held then: no typo
    assert before.value is None and not before.notes
    other = GraphMem(neo4j_target.settings, tenant=store.tenant + "x", driver=driver, install_schema=False)
    empty = other.as_of("lin", "home_address")
    assert empty.notes == [f"no events in tenant {store.tenant + 'x'!r}"]
