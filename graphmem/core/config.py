"""Every environment variable graphmem reads, in one typed model (docs/configuration.md lists them).

:class:`EnvConfig` is a frozen pydantic model: each field is one variable (its alias), with a
default and a description, validated from the variables' values as they are (no .env file, no
secrets folder). It is a plain model, not a pydantic-settings one: the settings sources cost every
CLI call ~0.06 s of imports (dotenv, cloud providers) for nothing. graphmem reads the environment
only through :func:`env_config`; it never writes ``os.environ``. An empty variable counts as unset
(but ``GRAPHMEM_EMBEDDER=`` means off, as it always has). A value of the wrong shape is a
:class:`~graphmem.core.errors.ConfigurationError` naming the variable, e.g.::

    GRAPHMEM_SENSITIVE_MODE='hide': Input should be 'mask' or 'refuse'

Callers that take an ``env`` mapping (tests, subprocess set-ups) pass it to :func:`env_config`;
``None`` means the process environment.

Example::

    >>> from graphmem.core.config import env_config
    >>> env_config({"NEO4J_URI": "neo4j://db:7687"}).neo4j_uri
    'neo4j://db:7687'
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, SecretStr
from pydantic import ValidationError as PydanticValidationError

from .errors import ConfigurationError

__all__ = ["EnvConfig", "VARIABLES", "env_config"]


class EnvConfig(BaseModel):
    """graphmem's environment: ``NEO4J_*`` (where the database is) and ``GRAPHMEM_*`` (everything else).
    Build it with :func:`env_config` (``EnvConfig()`` alone is the defaults, not the environment)."""

    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True, validate_default=True)

    # -- the database ------------------------------------------------------------------------------
    neo4j_uri: str | None = Field(None, alias="NEO4J_URI", description=(
        "Where Neo4j is: bolt://host:port for one server, neo4j://host:port for a cluster or Aura. "
        "Unset: the local server, bolt://127.0.0.1:7687 (the tests then look for Docker, then start it)."))
    neo4j_user: str | None = Field(None, alias="NEO4J_USER", description="The user to log in as (default neo4j).")
    neo4j_password: SecretStr | None = Field(None, alias="NEO4J_PASSWORD", description=(
        "The password. Unset: the local server's generated one when NEO4J_URI is that server, else no auth. "
        "At `graphmem server start`, the password the new server gets."))
    neo4j_database: str | None = Field(None, alias="NEO4J_DATABASE",
                                       description="The database name; unset: the server's default database.")

    # -- the local server (graphmem server start) ---------------------------------------------------
    home: Path | None = Field(None, alias="GRAPHMEM_HOME", description=(
        "The local server's folder: build, data, logs, server.json, the generated password. "
        "Unset: $XDG_DATA_HOME/graphmem, else ~/.local/share/graphmem. The Makefile sets ./.graphmem."))
    xdg_data_home: Path | None = Field(None, alias="XDG_DATA_HOME",
                                       description="The base of the default GRAPHMEM_HOME (XDG convention).")
    xdg_runtime_dir: Path | None = Field(None, alias="XDG_RUNTIME_DIR", description=(
        "Where the registry of running local servers lives (graphmem/servers/); unset: "
        "$TMPDIR/graphmem-<uid>/servers."))
    neo4j_heap: str = Field("2g", alias="GRAPHMEM_NEO4J_HEAP", pattern=r"^\d+[kmgKMG]?$",
                            description="The local server's JVM heap (-Xmx), e.g. 768m or 2g.")
    neo4j_pagecache: str = Field("1g", alias="GRAPHMEM_NEO4J_PAGECACHE", pattern=r"^\d+[kmgKMG]?$",
                                 description="The local server's page cache, e.g. 64m or 1g.")
    neo4j_tx_log_retention: str | None = Field(
        None, alias="GRAPHMEM_NEO4J_TX_LOG_RETENTION",
        pattern=r"^(true|false|keep_all|keep_none|\d+[kmgKMG]? ?(files|size|txs|entries|hours|days))$",
        description=("How much transaction log the local server keeps (Neo4j's db.tx_log.rotation.retention_policy), "
                     "e.g. false (only what recovery needs) or 100M size; unset: 1G size. Erased text stays in "
                     "these logs until they are pruned (docs/governance.md)."))
    java_home: Path | None = Field(None, alias="JAVA_HOME",
                                   description="The JDK the local server runs on; unset: `java` on PATH.")

    # -- the client -------------------------------------------------------------------------------
    actor: str | None = Field(None, alias="GRAPHMEM_ACTOR", description=(
        "Who a client writes as when none is given (every event names an actor, docs/design.md §5)."))
    embedder: str | None = Field(None, alias="GRAPHMEM_EMBEDDER", description=(
        "Recall's vector leg: wordllama (default when installed), hashing, minilm, off, or package.module:attribute."))
    minilm_path: str | None = Field(None, alias="GRAPHMEM_MINILM_PATH", description=(
        "The on-disk all-MiniLM-L6-v2 weights for GRAPHMEM_EMBEDDER=minilm; never downloaded."))
    sensitive_mode: Literal["mask", "refuse"] | None = Field(None, alias="GRAPHMEM_SENSITIVE_MODE", description=(
        "What a secret in a working-memory write gets: mask (default) or refuse."))
    sensitive_patterns: Path | None = Field(None, alias="GRAPHMEM_SENSITIVE_PATTERNS", description=(
        'A JSON file {"name": "regex", ...} that replaces the built-in secret patterns.'))
    vocabulary: Path | None = Field(None, alias="GRAPHMEM_VOCABULARY", description=(
        "A JSON file of extra topics for the rule extractor (graphmem/extract/vocabulary.json's format)."))
    parse_workers: Literal["auto", "0", "1"] = Field("auto", alias="GRAPHMEM_PARSE_WORKERS", description=(
        "Bulk ingest's parse worker process (graphmem/extract/parse_pool.py): 0 never, 1 always, auto "
        "when a core is free (the last minute's load average, which counts the import itself, "
        "at most the core count)."))

    # -- benchmarks and tests -----------------------------------------------------------------------
    temporal_kg: Path | None = Field(None, alias="GRAPHMEM_TEMPORAL_KG", description=(
        "`graphmem bench`'s YAGO11k/WIKIDATA12k folder when --data is not given (docs/data.md)."))
    thorough: bool = Field(False, alias="GRAPHMEM_THOROUGH",
                           description="Tests only: the database-backed property tests at full example counts.")
    browser_url: str | None = Field(None, alias="GRAPHMEM_BROWSER_URL", description=(
        "Tests only: the Neo4j Browser to drive when Neo4j is not the local server."))



#: every variable graphmem reads → its description (docs/configuration.md is checked against it)
VARIABLES: dict[str, str] = {f.alias: f.description or "" for f in EnvConfig.model_fields.values() if f.alias}


#: empty counts as unset, except GRAPHMEM_EMBEDDER= which has always meant "off"
_EMPTY_MEANS_SOMETHING = frozenset({"GRAPHMEM_EMBEDDER"})


#: the names a variable may be read under: its alias, or its field name (populate_by_name)
_NAMES = frozenset(VARIABLES) | frozenset(EnvConfig.model_fields)


def env_config(env: Mapping[str, str] | EnvConfig | None = None) -> EnvConfig:
    """The configuration in ``env`` (default: the process environment), validated; an
    :class:`EnvConfig` given is returned as it is.

    Raises :class:`~graphmem.core.errors.ConfigurationError` naming the variable and the value when one
    has the wrong shape.

    Validating costs ~0.1 ms, and some callers ask on every call (a working
    item's secret patterns, each client): the model is frozen, so the one built from the same
    values of graphmem's variables is handed out again. A changed variable is read afresh.
    """
    if isinstance(env, EnvConfig):
        return env
    source = os.environ if env is None else env
    return _validated(tuple(sorted((k, v) for k, v in source.items() if k in _NAMES)))


@lru_cache(maxsize=32)
def _validated(variables: tuple[tuple[str, str], ...]) -> EnvConfig:
    try:
        return EnvConfig.model_validate({k: v for k, v in variables if v != "" or k in _EMPTY_MEANS_SOMETHING})
    except PydanticValidationError as e:
        raise ConfigurationError("; ".join(_describe(err) for err in e.errors())) from e


def _describe(err: Any) -> str:
    field = str(err["loc"][0]) if err.get("loc") else ""
    info = EnvConfig.model_fields.get(field)
    name = info.alias if info and info.alias else field
    value = err.get("input")
    shown = "<hidden>" if name == "NEO4J_PASSWORD" else repr(value)
    return f"{name}={shown}: {err['msg']}"
