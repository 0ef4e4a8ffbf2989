"""Find a real Neo4j for tests, in a fixed order; never a mock.

1. ``NEO4J_URI`` when set (any server: a cluster, Aura, a container you started);
2. a ``testcontainers`` ``Neo4jContainer`` when a Docker engine answers;
3. the local server (``graphmem server start``), started here if it is not running.

If none can be had, :func:`find_neo4j` raises :class:`graphmem.core.errors.ConfigurationError`, and
the test fixture turns that into a failure, never a skip.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable, Mapping

from ..core.config import env_config
from ..core.errors import ConfigurationError, GraphMemError
from ..store.settings import Settings

__all__ = ["Neo4jTarget", "docker_available", "find_neo4j"]

NEO4J_IMAGE = "neo4j:5.26-community"


@dataclass
class Neo4jTarget:
    settings: Settings
    how: str  # "env", "testcontainers" or "local"
    cleanup: Callable[[], None] = field(default=lambda: None)


def docker_available() -> bool:
    """Does a Docker engine answer? (The docker client alone is not enough.)"""
    try:
        # testcontainers depends on it; imported by name so a type checker run from the repository
        # does not take its docker/ folder (the local Neo4j build) for the package
        docker = importlib.import_module("docker")
        client = docker.from_env(timeout=3)
        client.ping()
        return True
    except Exception:  # any failure means: no usable engine
        return False


def _from_container() -> Neo4jTarget:
    from testcontainers.neo4j import Neo4jContainer

    container = Neo4jContainer(NEO4J_IMAGE)
    container.start()
    settings = Settings(uri=container.get_connection_url(), user="neo4j", password=container.password)
    return Neo4jTarget(settings, "testcontainers", container.stop)


def _from_local() -> Neo4jTarget:
    from . import server

    info = server.start()
    return Neo4jTarget(Settings.from_env(uri=info.bolt_uri), "local")


def find_neo4j(env: Mapping[str, str] | None = None,
               docker_check: Callable[[], bool] = docker_available,
               container: Callable[[], Neo4jTarget] = _from_container,
               local: Callable[[], Neo4jTarget] = _from_local) -> Neo4jTarget:
    """The first Neo4j available in the documented order."""
    config = env_config(env)
    if config.neo4j_uri:
        return Neo4jTarget(Settings.from_env(config), "env")
    if docker_check():
        return container()
    try:
        return local()
    except GraphMemError as e:
        raise ConfigurationError(f"no Neo4j for the tests: NEO4J_URI is not set, no Docker engine answers, "
                                 f"and the local server could not start: {e}") from e
