"""Shared fixtures: a real Neo4j (graphmem.testing order) and a fresh tenant per test."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/integration" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def neo4j_target():
    from graphmem.errors import GraphMemError
    from graphmem.testing import find_neo4j

    try:
        target = find_neo4j()
    except GraphMemError as e:
        pytest.fail(str(e))  # a missing Neo4j is a failure, never a skip
    yield target
    target.cleanup()


@pytest.fixture(scope="session")
def driver(neo4j_target):
    import neo4j

    d = neo4j.GraphDatabase.driver(neo4j_target.settings.uri, auth=neo4j_target.settings.auth,
                                   notifications_min_severity="OFF")
    yield d
    d.close()


@pytest.fixture
def store(neo4j_target, driver):
    """A GraphMem on a fresh tenant, deleted after the test."""
    from graphmem import GraphMem

    s = GraphMem(neo4j_target.settings, tenant=f"test-{uuid.uuid4().hex[:10]}", driver=driver)
    yield s
    s.drop_tenant()


@pytest.fixture(scope="session")
def eval_dir() -> Path:
    """The scenario files shipped with graphmem (graphmem/examples: scenarios.json, messages.json)."""
    from graphmem import examples

    return examples.path("scenarios.json").parent


@pytest.fixture(scope="session")
def kg_dir() -> Path:
    """Generated temporal-KG files in the shape of YAGO11k / WIKIDATA12k (tests/data/README.md)."""
    return DATA / "temporal-kg"
