"""A store written before ``tenant_key`` existed is upgraded on connect (graphmem.store.upgrade):
its Facts, Sources and Entities get their tenant's key, and a full-text index defined without the
key is dropped and created as schema.cypher defines it now — over a ``neo4j://`` routing URI.

The test server is shared (other tenants, other sessions' tests reading the real indexes), so the
old index is a probe index of this test's own (the same code path as ``memory_text``: every
full-text statement of schema.cypher is compared), and the backfill is kept to this test's tenants.
"""

from __future__ import annotations

import uuid

from graphmem import GraphMem
from graphmem.core.tenant_key import tenant_key
from graphmem.store import queries, upgrade

from test_tenant_scope import _load, _own_found


def _keys(driver, tenants: list[str]) -> dict[str, set[str | None]]:
    records, _, _ = driver.execute_query(
        "MATCH (n:Fact|Source|Entity) WHERE n.tenant IN $t RETURN n.tenant AS t, collect(DISTINCT n.tenant_key) AS k, "
        "count(n) - count(n.tenant_key) AS missing", t=tenants)
    return {r["t"]: set(r["k"]) | ({None} if r["missing"] else set()) for r in records}


def _index(driver, name: str) -> tuple[int, list[str]] | None:
    records, _, _ = driver.execute_query("SHOW FULLTEXT INDEXES YIELD id, name, properties WHERE name = $name "
                                         "RETURN id, properties", name=name)
    return (records[0]["id"], records[0]["properties"]) if records else None


def test_an_old_store_is_upgraded_on_connect(neo4j_target, driver, monkeypatch):
    run = uuid.uuid4().hex[:8]
    tenants = [f"Acme {run}", f"acme. {run}"]  # alike to an analyzer: they shared a token before the key
    probe = f"tenantkey_probe_{run}"
    version = f"test-upgrade-{run}"
    settings = neo4j_target.settings
    mems = [GraphMem(settings, tenant=t, driver=driver) for t in tenants]
    try:
        for i, mem in enumerate(mems):
            _load(mem, f"t{i}")
        # as an earlier graphmem left it: no key on the nodes, a full-text index defined without it
        driver.execute_query("MATCH (n:Fact|Source|Entity) WHERE n.tenant IN $t REMOVE n.tenant_key", t=tenants)
        driver.execute_query(f"CREATE FULLTEXT INDEX {probe} FOR (n:TenantkeyProbe) ON EACH [n.tenant, n.text]")
        assert _keys(driver, tenants) == {t: {None} for t in tenants}
        assert not any(_own_found(mem, f"t{i}") for i, mem in enumerate(mems))  # the full-text legs find nothing

        statements = queries.schema_statements() + [
            f"CREATE FULLTEXT INDEX {probe} IF NOT EXISTS FOR (n:TenantkeyProbe) ON EACH [n.tenant, n.tenant_key, n.text]"]
        monkeypatch.setattr(queries, "schema_statements", lambda: statements)
        monkeypatch.setattr(queries, "schema_version", lambda: version)  # not marked in this database
        everyone = upgrade.unkeyed_tenants

        def ours():
            return [t for t in (yield from everyone()) if t in tenants]

        monkeypatch.setattr(upgrade, "unkeyed_tenants", ours)
        old_id = _index(driver, probe)[0]
        routed = settings.uri.replace("bolt://", "neo4j://")
        with GraphMem(settings, tenant=tenants[0], uri=routed) as mem:  # its own driver: the schema is checked on connect
            assert mem.ensure_schema() is False  # connecting installed and marked it
            new_id, props = _index(driver, probe)
            assert new_id != old_id and "tenant_key" in props
            mem.install_schema()  # again: nothing left to upgrade, nothing recreated
            assert _index(driver, probe)[0] == new_id
        assert _keys(driver, tenants) == {t: {tenant_key(t)} for t in tenants}
        assert all(_own_found(mem, f"t{i}") for i, mem in enumerate(mems))
    finally:
        driver.execute_query(f"DROP INDEX {probe} IF EXISTS")
        driver.execute_query("MATCH (m:GraphmemSchema {version: $v}) DELETE m", v=version)
        for mem in mems:
            mem.drop_tenant()


def test_the_ogm_schema_install_upgrades_too(neo4j_target, driver, monkeypatch):
    """``graphmem.interfaces.ogm.install_schema(driver)`` marks the schema version, so it must run the
    same upgrade first: a marked store is never upgraded by a client."""
    from graphmem.interfaces import ogm

    run = uuid.uuid4().hex[:8]
    tenant, version = f"ACME! {run}", f"test-ogm-upgrade-{run}"
    mem = GraphMem(neo4j_target.settings, tenant=tenant, driver=driver)
    try:
        _load(mem, "t0", 3)
        driver.execute_query("MATCH (n:Fact|Source|Entity {tenant: $t}) REMOVE n.tenant_key", t=tenant)
        monkeypatch.setattr(queries, "schema_version", lambda: version)
        everyone = upgrade.unkeyed_tenants

        def ours():
            return [t for t in (yield from everyone()) if t == tenant]

        monkeypatch.setattr(upgrade, "unkeyed_tenants", ours)
        ogm.install_schema(driver, neo4j_target.settings.database)
        assert _keys(driver, [tenant]) == {tenant: {tenant_key(tenant)}}
        records, _, _ = driver.execute_query("MATCH (m:GraphmemSchema {version: $v}) RETURN count(m) AS n", v=version)
        assert records[0]["n"] == 1
    finally:
        driver.execute_query("MATCH (m:GraphmemSchema {version: $v}) DELETE m", v=version)
        mem.drop_tenant()
