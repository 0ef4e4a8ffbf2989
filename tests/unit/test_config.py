"""graphmem.core.config: one typed model of every variable graphmem reads; defaults, overrides, bad
values as a ConfigurationError that names the variable, and no code that writes os.environ."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import SecretStr

from graphmem.core.config import VARIABLES, env_config
from graphmem.core.errors import ConfigurationError
from graphmem.governance.sensitive import SensitiveConfig
from graphmem.store.settings import Settings, graphmem_home

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "graphmem"


def test_defaults_from_an_empty_environment():
    c = env_config({})
    assert c.neo4j_uri is None and c.neo4j_password is None and c.neo4j_database is None
    assert (c.neo4j_heap, c.neo4j_pagecache) == ("2g", "1g")
    assert c.sensitive_mode is None and c.embedder is None and c.thorough is False
    assert Settings.from_env({}).uri == "bolt://127.0.0.1:7687" and Settings.from_env({}).database is None


def test_every_variable_overrides_its_field():
    env = {"NEO4J_URI": "neo4j://db.example:7687", "NEO4J_USER": "ops", "NEO4J_PASSWORD": "pw-123",
           "NEO4J_DATABASE": "mem", "GRAPHMEM_HOME": "/tmp/gm-home", "GRAPHMEM_NEO4J_HEAP": "768m",
           "GRAPHMEM_NEO4J_PAGECACHE": "64m", "GRAPHMEM_ACTOR": "robot", "GRAPHMEM_EMBEDDER": "hashing",
           "GRAPHMEM_MINILM_PATH": "/models/minilm", "GRAPHMEM_SENSITIVE_MODE": "refuse",
           "GRAPHMEM_TEMPORAL_KG": "/data/kg", "GRAPHMEM_THOROUGH": "1", "GRAPHMEM_VOCABULARY": "/v.json"}
    c = env_config(env)
    assert c.neo4j_uri == "neo4j://db.example:7687" and c.neo4j_user == "ops" and c.neo4j_database == "mem"
    assert isinstance(c.neo4j_password, SecretStr) and c.neo4j_password.get_secret_value() == "pw-123"
    assert "pw-123" not in repr(c)
    assert c.home == Path("/tmp/gm-home") and (c.neo4j_heap, c.neo4j_pagecache) == ("768m", "64m")
    assert (c.actor, c.embedder, c.minilm_path, c.sensitive_mode) == ("robot", "hashing", "/models/minilm", "refuse")
    assert c.temporal_kg == Path("/data/kg") and c.thorough is True and c.vocabulary == Path("/v.json")
    s = Settings.from_env(env, database="other")
    assert (s.uri, s.user, s.database, s.auth) == ("neo4j://db.example:7687", "ops", "other", ("ops", "pw-123"))
    assert graphmem_home(env) == Path("/tmp/gm-home").resolve()


def test_the_process_environment_is_read_when_no_mapping_is_given(monkeypatch):
    monkeypatch.setenv("GRAPHMEM_ACTOR", "from-env")
    monkeypatch.setenv("GRAPHMEM_HOME", "")  # empty counts as unset
    monkeypatch.setenv("XDG_DATA_HOME", "/tmp/xdg-data")
    assert env_config().actor == "from-env"
    assert graphmem_home() == Path("/tmp/xdg-data/graphmem").resolve()
    assert env_config({}).actor is None  # a given mapping is all there is


def test_the_same_variables_give_the_same_model_and_a_change_is_read(monkeypatch):
    """env_config() is asked on hot paths (a working item's secret patterns): the frozen model of
    the same variables is reused, and a variable set or changed since is still seen."""
    monkeypatch.setenv("GRAPHMEM_ACTOR", "first")
    assert env_config() is env_config() and env_config().actor == "first"
    monkeypatch.setenv("GRAPHMEM_ACTOR", "second")
    assert env_config().actor == "second"
    monkeypatch.setenv("graphmem_unrelated", "x")  # not graphmem's: the same model
    assert env_config() is env_config()
    given = env_config({"GRAPHMEM_ACTOR": "given"})
    assert env_config(given) is given


def test_an_empty_embedder_still_means_off():
    assert env_config({"GRAPHMEM_EMBEDDER": ""}).embedder == ""
    assert env_config({"GRAPHMEM_ACTOR": ""}).actor is None


@pytest.mark.parametrize("var, value, says", [
    ("GRAPHMEM_SENSITIVE_MODE", "hide", "GRAPHMEM_SENSITIVE_MODE='hide': Input should be 'mask' or 'refuse'"),
    ("GRAPHMEM_NEO4J_HEAP", "lots", "GRAPHMEM_NEO4J_HEAP='lots': String should match pattern"),
    ("GRAPHMEM_THOROUGH", "maybe", "GRAPHMEM_THOROUGH='maybe': Input should be a valid boolean"),
])
def test_a_bad_value_is_a_configuration_error_naming_the_variable(var, value, says):
    with pytest.raises(ConfigurationError) as err:
        env_config({var: value})
    assert str(err.value).startswith(says)


def test_bad_values_reach_the_callers_as_configuration_errors():
    with pytest.raises(ConfigurationError, match="GRAPHMEM_SENSITIVE_MODE"):
        SensitiveConfig.from_env({"GRAPHMEM_SENSITIVE_MODE": "loud"})
    with pytest.raises(ConfigurationError, match="GRAPHMEM_NEO4J_PAGECACHE"):
        Settings.from_env({"GRAPHMEM_NEO4J_PAGECACHE": "1 gig"})


def test_an_error_never_shows_the_password():
    from graphmem.core.config import _describe
    text = _describe({"loc": ("neo4j_password",), "input": "hunter2-secret", "msg": "bad"})
    assert "hunter2" not in text and text.startswith("NEO4J_PASSWORD=<hidden>")


def test_graphmem_never_writes_the_environment():
    writes = re.compile(r"os\.environ(\[[^\]]+\]\s*=|\.(setdefault|update|pop|clear)\()|os\.(putenv|unsetenv)\(")
    offenders = [f"{p.relative_to(ROOT)}:{i}" for p in PACKAGE.rglob("*.py")
                 for i, line in enumerate(p.read_text().splitlines(), 1) if writes.search(line)]
    assert not offenders, offenders


def test_only_the_config_model_reads_graphmem_variables():
    """Each GRAPHMEM_*/NEO4J_* read goes through graphmem.core.config."""
    reads = re.compile(r"(os\.environ\.get|os\.getenv|environ\[)\(?\s*[\"'](GRAPHMEM|NEO4J)_")
    offenders = [f"{p.relative_to(ROOT)}:{i}" for p in PACKAGE.rglob("*.py")
                 if p.name != "config.py"
                 for i, line in enumerate(p.read_text().splitlines(), 1) if reads.search(line)]
    assert not offenders, offenders


def test_the_configuration_page_lists_every_variable():
    page = (ROOT / "docs" / "configuration.md").read_text()
    missing = [name for name in VARIABLES if f"`{name}`" not in page]
    assert not missing, missing
    assert all(VARIABLES.values()), "every field has a description"
