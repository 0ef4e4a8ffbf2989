"""The newcomer's defects of issue #44 that need no database: the connection error's name, where a
URI came from and what its error says, GraphMem(uri=..., password=...), graphmem --version, and the
types of the public signatures importable from graphmem."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

import graphmem
from graphmem import GraphMem, Neo4jConnectionError, Settings, ValidationError
from graphmem.core import errors

EXE = str(Path(sys.executable).parent / "graphmem")


def test_the_connection_error_has_a_real_name_and_the_old_one_still_catches_it():
    assert Neo4jConnectionError is errors.ConnectionError_
    assert issubclass(Neo4jConnectionError, graphmem.GraphMemError) and issubclass(Neo4jConnectionError, ConnectionError)
    assert "ConnectionError_" not in graphmem.__all__ and "Neo4jConnectionError" in graphmem.__all__
    assert "Neo4jConnectionError" in errors.__doc__


def test_the_types_of_the_new_signatures_are_exported():
    for name in ("RecallConfig", "Memory", "SearchResult", "Episode", "SourceRef", "ItemWarning"):
        assert name in graphmem.__all__ and getattr(graphmem, name) is not None, name
    assert graphmem.RecallConfig(limit=5).limit == 5


def test_where_the_uri_came_from_decides_what_its_error_says():
    given = Settings.from_env({}, uri="bolt://db.example:7687")
    assert given.origin == "argument"
    text = given.unreachable("ServiceUnavailable")
    assert "bolt://db.example:7687" in text and "NEO4J_URI" not in text
    env = Settings.from_env({"NEO4J_URI": "bolt://db.example:7687"})
    assert env.origin == "env" and "check NEO4J_URI" in env.unreachable("x")
    default = Settings.from_env({})
    assert default.origin == "default" and "graphmem server start" in default.unreachable("x")
    assert Settings(uri="bolt://elsewhere:7687").origin == "argument"


def test_graphmem_takes_the_connection_as_keywords():
    mem = GraphMem(uri="bolt://db.example:7687", user="me", password="s3cret", database="mem", tenant="t",
                   install_schema=False)
    try:
        s = mem.settings
        assert (s.uri, s.user, s.database, s.origin) == ("bolt://db.example:7687", "me", "mem", "argument")
        assert s.password is not None and s.password.get_secret_value() == "s3cret"
        assert "s3cret" not in repr(s)
    finally:
        mem.close()
    base = Settings(uri="bolt://db.example:7687", user="neo4j")
    over = GraphMem(base, password="pw", tenant="t", install_schema=False)
    try:
        assert over.settings.uri == base.uri and over.settings.auth == ("neo4j", "pw")
    finally:
        over.close()
    with pytest.raises(ValidationError):
        GraphMem(password="", tenant="t", install_schema=False)


def test_a_dead_uri_fails_in_seconds_naming_it():
    """Nothing listens on port 1: the read fails after the connect timeout (3 s), not after 30 s of retries."""
    start = time.monotonic()
    with pytest.raises(Neo4jConnectionError) as err:
        with GraphMem(uri="bolt://127.0.0.1:1", password="x", tenant="t") as mem:
            mem.as_of("a", "b")
    assert time.monotonic() - start < 10
    assert "bolt://127.0.0.1:1" in str(err.value) and "NEO4J_URI" not in str(err.value)


def test_the_cli_names_the_dead_uri_it_was_given(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "NEO4J_PASSWORD": "x"}
    start = time.monotonic()
    out = subprocess.run([EXE, "as-of", "lin", "home_address", "--uri", "bolt://127.0.0.1:1"], capture_output=True,
                         text=True, env=env, timeout=60)
    assert time.monotonic() - start < 10
    assert out.returncode == 1 and "bolt://127.0.0.1:1" in out.stderr and "NEO4J_URI" not in out.stderr, out.stderr
    env["NEO4J_URI"] = "bolt://127.0.0.1:1"
    out = subprocess.run([EXE, "as-of", "lin", "home_address"], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 1 and "check NEO4J_URI" in out.stderr, out.stderr


def test_version():
    for flag in ("--version", "-V"):
        out = subprocess.run([EXE, flag], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0 and out.stdout.strip() == f"graphmem {graphmem.__version__}", out
    from typer.testing import CliRunner

    from graphmem.interfaces.cli import app
    assert CliRunner().invoke(app, ["--version"]).output.strip() == f"graphmem {graphmem.__version__}"
