"""Integration tests find Neo4j in the documented order: NEO4J_URI, Docker, local server."""

from __future__ import annotations

import pytest

from graphmem.core.errors import ServerError, ConfigurationError
from graphmem.store.settings import Settings
from graphmem.local.testing import Neo4jTarget, find_neo4j


def _never():
    raise AssertionError("must not be called")


def test_env_var_is_honoured_first():
    t = find_neo4j({"NEO4J_URI": "neo4j://db.example:7687", "NEO4J_DATABASE": "mem"},
                   docker_check=_never, container=_never, local=_never)
    assert t.how == "env" and t.settings.uri == "neo4j://db.example:7687" and t.settings.database == "mem"


def test_container_when_docker_answers():
    t = find_neo4j({}, docker_check=lambda: True,
                   container=lambda: Neo4jTarget(Settings(uri="bolt://c:1"), "testcontainers"), local=_never)
    assert t.how == "testcontainers"


def test_local_server_when_neither_env_nor_docker():
    t = find_neo4j({}, docker_check=lambda: False, container=_never,
                   local=lambda: Neo4jTarget(Settings(), "local"))
    assert t.how == "local" and t.settings.uri == "bolt://127.0.0.1:7687"


def test_nothing_available_is_an_error_not_a_skip():
    def broken():
        raise ServerError("java missing")
    with pytest.raises(ConfigurationError, match="no Neo4j for the tests"):
        find_neo4j({}, docker_check=lambda: False, container=_never, local=broken)


def test_password_never_prints():
    s = Settings(password="hunter2-secret")
    assert "hunter2" not in repr(s) and "hunter2" not in str(s.model_dump())
