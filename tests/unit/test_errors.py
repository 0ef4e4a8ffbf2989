"""The exception tree: what each error says, what it carries, and which failures count as
"no Neo4j answers" (only the driver's)."""

from __future__ import annotations

import re
from pathlib import Path

import neo4j.exceptions as neo4j_errors

import graphmem
from graphmem.core import errors
from graphmem.store.api import from_driver, translate
from graphmem.core.errors import ConnectionError_, GraphMemError, NotFoundError, QueryError

ROOT = Path(__file__).resolve().parents[2]


def test_not_found_carries_kind_and_id():
    e = NotFoundError("unknown fact 'f-9'", kind="fact", id="f-9")
    assert (str(e), e.kind, e.id) == ("unknown fact 'f-9'", "fact", "f-9")
    assert isinstance(e, LookupError) and isinstance(e, GraphMemError)


def test_every_not_found_in_graphmem_says_its_kind_and_id():
    """Each ``raise NotFoundError(...)`` passes kind= and id= (the call may span lines)."""
    calls = []
    for p in (ROOT / "graphmem").rglob("*.py"):
        text = p.read_text()
        for m in re.finditer(r"NotFoundError\(", text):
            if text[m.start() - 6:m.start()] == "raise ":
                end = text.index("\n\n", m.start()) if "\n\n" in text[m.start():] else len(text)
                call = text[m.start():end]
                calls.append((p.name, "kind=" in call and "id=" in call))
    assert calls and all(ok for _, ok in calls), [name for name, ok in calls if not ok]


def test_connection_failures_read_the_same_and_hide_credentials():
    down = translate(neo4j_errors.ServiceUnavailable("Couldn't connect to 127.0.0.1:7687"), "as_of")
    assert isinstance(down, ConnectionError_) and isinstance(down, ConnectionError)
    assert str(down) == ("no Neo4j answers (ServiceUnavailable); start one with 'graphmem server start' "
                         "or set NEO4J_URI")
    refused = translate(neo4j_errors.AuthError("password 'hunter2' is wrong"), "ping")
    assert str(refused) == ("Neo4j refused the credentials (check NEO4J_USER / NEO4J_PASSWORD, "
                            "or GraphMem(user=..., password=...))")


def test_a_refused_query_names_the_query():
    err = neo4j_errors.Neo4jError._hydrate_neo4j(code="Neo.ClientError.Statement.SyntaxError", message="bad")
    out = translate(err, "facts/as_of")
    assert isinstance(out, QueryError) and out.query == "facts/as_of"
    assert str(out) == "Neo.ClientError.Statement.SyntaxError: bad (query: facts/as_of)"


def _raise_in(module: str) -> OSError:
    """An OSError whose innermost frame belongs to ``module``."""
    scope = {"__name__": module}
    exec("def boom():\n    raise ConnectionResetError(104, 'Connection reset by peer')\n", scope)
    try:
        scope["boom"]()
    except OSError as e:
        return e
    raise AssertionError("unreachable")


def test_only_the_drivers_oserror_is_a_connection_failure():
    assert from_driver(_raise_in("neo4j._sync.io._bolt_socket"))
    assert not from_driver(_raise_in("graphmem.extract.custom"))
    assert not from_driver(_raise_in("my_extractor"))
    try:
        open("/nonexistent/graphmem/file")
    except OSError as e:  # raised in this test (stdlib frames below it): the caller's, not the driver's
        assert not from_driver(e)
    assert from_driver(neo4j_errors.ServiceUnavailable("x"))  # the driver's own types always are


def test_the_docstring_names_only_what_exists():
    doc = errors.__doc__ or ""
    for ref in re.findall(r":(?:func|class):`([\w.]+)`", doc):
        module, _, name = ref.rpartition(".")
        assert hasattr(__import__(module, fromlist=[name]), name), ref
    tree = set(re.findall(r"(\w+Error_?)\s", doc.split("\n\n")[1]))
    assert tree == {n for n in errors.__all__}, tree ^ set(errors.__all__)


def test_every_error_is_raised_somewhere():
    source = "\n".join(p.read_text() for p in (ROOT / "graphmem").rglob("*.py") if p.name != "errors.py")
    never = [n for n in errors.__all__ if n != "GraphMemError" and not re.search(rf"\b{n}\(", source)]
    assert not never, never


def test_every_error_is_public():
    assert set(errors.__all__) - {"MissingExtraError"} <= set(graphmem.__all__)
