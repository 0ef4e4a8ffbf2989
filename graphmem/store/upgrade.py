"""Bring a store written by an earlier graphmem up to cypher/schema.cypher before its statements run.

``CREATE … INDEX … IF NOT EXISTS`` keeps an index of that name whatever its definition, so a
full-text index made before ``tenant_key`` existed (graphmem.core.tenant_key) would stay without it
and every full-text leg, which requires the key, would find nothing. :func:`upgrade` therefore

* drops each full-text index whose labels, properties or analyzer differ from schema.cypher's
  statement of the same name (schema.cypher then creates it as defined now; :func:`await_indexes`
  waits for it to be populated);
* writes ``tenant_key`` on every Fact, Source and Entity that has none, a transaction of
  :data:`BATCH` nodes a label at a time, the key computed here in Python from the node's own tenant.

Run by :func:`graphmem.store.maintenance.install_schema`: on connect when the database does not
carry the current schema version's marker (once per database and version: later connects read the
marker only), and by ``graphmem schema install`` always — which is how to key nodes an older
client wrote after the upgrade. Everything goes through named queries on the client's own driver
and database (``SHOW``, ``DROP INDEX``, ``db.awaitIndex``, plain writes), so it works the same over a
``neo4j://`` routing URI and on a database other than the default one.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from ..core.tenant_key import tenant_key
from .plans import Plan, Tx
from .queries import Call, Steps

__all__ = ["BATCH", "FulltextIndex", "await_indexes", "backfill_tenant_keys", "declared_fulltext", "stale_fulltext",
           "unkeyed_tenants", "upgrade"]

BATCH = 10_000  # nodes of a label keyed in one transaction
INDEX_WAIT_SECONDS = 600
DEFAULT_ANALYZER = "standard-no-stop-words"  # Neo4j's, when a full-text index names none

_FULLTEXT = re.compile(r"CREATE FULLTEXT INDEX (\w+) IF NOT EXISTS FOR \(\w+:([\w|]+)\) ON EACH \[([^\]]*)\]"
                       r"(?:.*`fulltext\.analyzer`:\s*'([\w-]+)')?", re.S)

FulltextIndex = tuple[frozenset[str], frozenset[str], str]  # labels, properties, analyzer


def declared_fulltext(statements: Iterable[str]) -> dict[str, FulltextIndex]:
    """The full-text indexes schema.cypher declares, by name: labels, properties, analyzer."""
    out: dict[str, FulltextIndex] = {}
    for statement in statements:
        m = _FULLTEXT.match(statement.strip())
        if m:
            props = frozenset(p.strip().split(".", 1)[1] for p in m.group(3).split(",") if p.strip())
            out[m.group(1)] = (frozenset(m.group(2).split("|")), props, m.group(4) or DEFAULT_ANALYZER)
    return out


def stale_fulltext(declared: dict[str, FulltextIndex], shown: list[dict[str, Any]]) -> list[str]:
    """The declared indexes the database has under another definition (``admin/fulltext_indexes``
    rows). The order of labels and properties does not matter to an index, so it is not compared."""
    stale = []
    for row in shown:
        want = declared.get(row["name"])
        have = (frozenset(row["labels"] or []), frozenset(row["properties"] or []), row["analyzer"] or DEFAULT_ANALYZER)
        if want is not None and have != want:
            stale.append(row["name"])
    return sorted(stale)


def _drop(name: str) -> Tx:
    def work() -> Steps[None]:
        yield Call("admin/drop_index", {"name": name})
    return Tx(work, "admin/drop_index")


def _key(keys: dict[str, str]) -> Steps[int]:
    rows = yield Call("admin/tenant_keys", {"keys": keys, "batch": BATCH})
    keyed: int = rows[0]["keyed"]
    return keyed


def unkeyed_tenants() -> Plan[list[str]]:
    """The tenants with a Fact, Source or Entity that has no ``tenant_key``."""
    rows = yield Call("admin/unkeyed_tenants", {})
    return sorted(r["name"] for r in rows)


def backfill_tenant_keys() -> Plan[int]:
    """Key every Fact, Source and Entity without a ``tenant_key``; returns how many. A tenant an
    older client creates meanwhile is found by the next round; a round that keys nothing ends it."""
    total = 0
    while names := (yield from unkeyed_tenants()):
        keys = {name: tenant_key(name) for name in names}
        before = total
        while keyed := (yield Tx(lambda: _key(keys), "admin/tenant_keys")):
            total += keyed
        if total == before:
            break
    return total


def upgrade(statements: list[str]) -> Plan[list[str]]:
    """Before schema.cypher's ``statements`` run: drop the full-text indexes they define otherwise,
    key the nodes written without ``tenant_key``. Returns the indexes dropped (to create and await)."""
    shown = yield Call("admin/fulltext_indexes", {})
    stale = stale_fulltext(declared_fulltext(statements), shown)
    for name in stale:
        yield _drop(name)
    yield from backfill_tenant_keys()
    return stale


def await_indexes(names: list[str]) -> Plan[None]:
    """Wait until the indexes :func:`upgrade` dropped, created again, are online."""
    for name in names:
        yield Call("admin/await_index", {"name": name, "seconds": INDEX_WAIT_SECONDS})
