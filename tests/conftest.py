"""Shared fixtures: a real Neo4j (graphmem.local.testing order) and a fresh tenant per test."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
NOTES = pytest.StashKey[list]()


def pytest_configure(config):
    config.stash[NOTES] = []


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/integration" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.integration)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (``CI`` set) a skip is a failure: CI installs every system part the tests need."""
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped in CI (CI is set, so a skip is a failure): {reason}"


def _skip_reason(report) -> str:
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    return reason.removeprefix("Skipped: ")


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Skips are loud: the last line says what was skipped and how to get it running."""
    for note in config.stash.get(NOTES, []):
        terminalreporter.write_line(f"graphmem: note: {note}")
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if not hasattr(r, "wasxfail")]
    if not skipped:
        terminalreporter.write_line("graphmem: nothing skipped", green=True)
        return
    by_reason: dict[str, list[str]] = {}
    for r in skipped:
        by_reason.setdefault(_skip_reason(r), []).append(r.nodeid.split("::")[-1])
    parts = [f"{reason} ({len(names)}: {', '.join(names[:3])}{', …' if len(names) > 3 else ''})"
             for reason, names in by_reason.items()]
    terminalreporter.write_line(f"graphmem: SKIPPED {len(skipped)} test(s) — " + "; ".join(parts), yellow=True, bold=True)


@pytest.fixture(scope="session")
def neo4j_target():
    from graphmem.core.errors import GraphMemError
    from graphmem.local.testing import find_neo4j

    try:
        target = find_neo4j()
    except GraphMemError as e:
        pytest.fail(str(e))  # a missing Neo4j is a failure, never a skip
    yield target
    target.cleanup()


@pytest.fixture(scope="session")
def cli_env(neo4j_target) -> dict[str, str]:
    """The environment that points a ``graphmem`` subprocess at the test server."""
    settings = neo4j_target.settings
    env = dict(os.environ, NEO4J_URI=settings.uri)
    if settings.password is not None:
        env["NEO4J_PASSWORD"] = settings.password.get_secret_value()
    if settings.database:
        env["NEO4J_DATABASE"] = settings.database
    return env


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


@pytest.fixture
def note(request):
    """``note(text)``: a line printed at the end of the run (what a test compared, or could not)."""
    return request.config.stash[NOTES].append
