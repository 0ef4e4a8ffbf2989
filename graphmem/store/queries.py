"""The registry of named Cypher queries: every ``.cypher`` file under ``cypher/``, loaded once.

A query's name is its path without the extension (``as_of``, ``fact/create``). The text sent is
the file's name as a comment, then the file without its whole-line ``//`` comments: the same
statement an analyst pastes into Neo4j Browser, comments and all (:attr:`Query.text` says why
they are dropped). Values only ever enter as ``$parameters``; :meth:`Query.check` refuses a call
whose parameters differ from the file's, which catches a renamed parameter before Neo4j does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Generator, LiteralString, Mapping, TypeVar

from ..core.errors import ConfigurationError, QueryError, ValidationError

__all__ = ["Call", "Query", "Steps", "cypher_dir", "get", "names", "row", "schema_statements", "schema_version",
           "sendable"]

T = TypeVar("T")

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_NAME = re.compile(r"[a-z0-9_]+(/[a-z0-9_]+)*")  # a file's path under cypher/, without .cypher


def cypher_dir() -> Path:
    """Where the .cypher files are: inside the installed wheel, or the repository's ``cypher/``."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "cypher", here.parent / "cypher"):
        if (candidate / "as_of.cypher").is_file():
            return candidate
    raise ConfigurationError("graphmem's cypher/ folder is missing; reinstall the package")


def _strip_comments(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


@dataclass(frozen=True)
class Query:
    """One ``.cypher`` file. ``text`` is what the driver sends: a first line naming the file
    (``// cypher/as_of.cypher``, so ``SHOW TRANSACTIONS`` and the query log say which query runs),
    then the file without the lines that are only a comment. The server handles every character
    it is sent on every call, plan cached or not: ``RETURN 1`` after a 1,069-character comment line
    (as long as ``as_of.cypher``'s comments) took 0.05–0.13 ms longer in two- and three-way
    alternations, though not in ``bench/asof_parts.py``'s seven-way rotation (docs/scaling.md,
    "What a read costs"). ``source`` is the file as written."""

    name: str
    text: LiteralString
    params: frozenset[str]
    source: str

    def check(self, params: Mapping[str, Any]) -> None:
        if params.keys() != self.params:  # a keys view compares with a set as a set does
            given = set(params)
            missing = sorted(self.params - given)
            extra = sorted(given - self.params)
            raise QueryError(f"parameters do not match the file: missing {missing}, unexpected {extra}",
                             query=self.name)


def _trusted(text: str) -> LiteralString:
    """Text of graphmem's own .cypher files: the only query text the driver is ever given (values
    travel as parameters), so it is what ``LiteralString`` promises."""
    return text  # mypy reads LiteralString as str (PEP 675 is not enforced); the promise is ours


@lru_cache(maxsize=1)
def _registry() -> dict[str, Query]:
    """Every named query (each file read once per process)."""
    root = cypher_dir()
    return {name: _load(name) for name in sorted(p.relative_to(root).with_suffix("").as_posix()
                                                 for p in root.rglob("*.cypher"))}


@lru_cache(maxsize=None)
def _load(name: str) -> Query:
    """One named query, read from its file once per process: a call reads the few files it runs
    (a CLI read three of ~110), not all of them."""
    path = cypher_dir() / f"{name}.cypher"
    if not _NAME.fullmatch(name) or not path.is_file():
        raise QueryError("no such named query", query=name)
    source = path.read_text(encoding="utf-8")
    text = _strip_comments(source)
    return Query(name, _trusted(f"// cypher/{name}.cypher\n{text}"), frozenset(_PARAM.findall(text)), source)


def get(name: str) -> Query:
    return _load(name)


def names() -> list[str]:
    return sorted(_registry())


def schema_statements() -> list[LiteralString]:
    """schema.cypher split into statements (it is the one multi-statement file)."""
    body = _strip_comments(get("schema").source)
    return [_trusted(s.strip()) for s in body.split(";") if s.strip()]


def schema_version() -> str:
    """A short digest of schema.cypher's statements: the marker a database carries once they ran."""
    import hashlib

    text = "\n".join(schema_statements())
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


@dataclass(frozen=True)
class Call:
    """One named query to run with these parameters: what graphmem's operations yield.

    Operations are written once as generators that yield ``Call`` and receive the rows (a list
    of dicts); the sync and the async client only differ in how they run a ``Call``.
    """

    name: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def query(self) -> Query:
        q = get(self.name)
        q.check(self.params)
        for k, v in self.params.items():
            if isinstance(v, str) and not v.isascii():
                _utf8(k, v)
        return q


def _utf8(name: str, value: str) -> None:
    """A lone surrogate cannot be sent to Neo4j (the driver raised a bare ``UnicodeEncodeError``
    from deep inside a read): refuse it, typed, before the query runs."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValidationError(f"{name} is not valid UTF-8 (a lone surrogate at position {e.start})") from e


Steps = Generator[Call, list[dict[str, Any]], T]


_PLAIN = frozenset({str, int, float, bool, type(None)})


class _Sent(list):  # type: ignore[type-arg]
    """A parameter list that prints as its length (see :func:`sendable`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<list of {len(self)}>"


def sendable(params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` as handed to the driver: the same values, each list printing as its length.

    The neo4j driver (5.x and 6.x, ``Bolt5x0.run``) formats every query's parameters for its debug
    log before the logger is asked whether debug is on. On the bulk path that text was 55 MB for
    40,000 facts — ~7% of the client's CPU — and a transcript's embeddings cost ~0.3 ms a turn. With
    debug logging on it would also copy every message's text into the log. The driver packs any
    ``list`` subclass as a list, so Neo4j receives the same values (tests/integration/test_store.py
    sends them both ways)."""
    return {k: _Sent(v) if type(v) is list else v for k, v in params.items()}


def row(record: Any) -> dict[str, Any]:
    """A result record as a dict, as ``record.data()`` gives it, without copying plain values.

    ``data()`` sends every value through the driver's recursive exporter (it turns nodes into
    property maps); most of what graphmem's queries return is text and numbers, and walking them
    cost more Python time per context() than fitting the budget. Lists and maps of plain values
    (recall's neighbour lists, a slot's collected facts) are the driver's own new objects, so they
    are checked, not copied; only the other values — nodes, temporal values, or lists holding
    them — take the exporter's path, so the result is the same.

    The values are read as the tuple the driver's ``Record`` is (5.x and 6.x), not through its
    ``values()``, a Python generator that checks each value for a failed hydration: 3.6 against
    8.9 µs for an as-of row of 13 columns. A failed value is not plain, so it still goes to
    ``data()``, which raises the driver's ``BrokenRecordError`` as before."""
    values = tuple.__iter__(record) if isinstance(record, tuple) else iter(record.values())
    out = dict(zip(record.keys(), values))
    for k, v in out.items():
        if type(v) not in _PLAIN and not _plain(v):
            out[k] = record.data(k)[k]  # replaces a value, never adds a key: safe while iterating
    return out


def _plain(v: Any) -> bool:
    """Is ``v`` text, a number, a boolean, null, or lists and maps of them? Checking is about a
    third of copying (measured on a slot's collected facts: ~2.9 against ~9.6 µs a fact)."""
    t = type(v)
    if t is list:
        items: Any = v
    elif t is dict:
        items = v.values()
    else:
        return t in _PLAIN
    for x in items:
        if type(x) not in _PLAIN and not _plain(x):
            return False
    return True
