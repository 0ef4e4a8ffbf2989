"""The store's upgrade finds the full-text indexes schema.cypher defines otherwise
(graphmem.store.upgrade); the upgrade itself runs against Neo4j in
tests/integration/test_tenant_key_upgrade.py."""

from __future__ import annotations

from graphmem.core.tenant_key import tenant_key
from graphmem.store import queries, upgrade


def test_stale_fulltext_compares_labels_properties_and_analyzer():
    declared = upgrade.declared_fulltext(queries.schema_statements())
    assert declared["message_text"] == (frozenset({"Source"}), frozenset({"tenant", "tenant_key", "text", "author"}),
                                        "english")
    assert declared["memory_text"][2] == upgrade.DEFAULT_ANALYZER
    rows = [{"name": "message_text", "labels": ["Source"], "properties": ["author", "text", "tenant_key", "tenant"],
             "analyzer": "english"},  # another order: the same index
            {"name": "message_text_cjk", "labels": ["Source"], "properties": ["tenant", "text"], "analyzer": "cjk"},
            {"name": "memory_text", "labels": ["Fact", "Source", "Entity"],
             "properties": sorted(declared["memory_text"][1]), "analyzer": "english"},
            {"name": "someone_elses", "labels": ["X"], "properties": ["y"], "analyzer": None}]
    assert upgrade.stale_fulltext(declared, rows) == ["memory_text", "message_text_cjk"]


def test_the_tenant_key_is_one_lower_case_token_per_name():
    names = ["Acme", "acme", "acme.", "acmes", "ACME!", "***", "中", ":", "0", " acme", "acme "]
    keys = [tenant_key(n) for n in names]
    assert len(set(keys)) == len(names)
    assert all(k.startswith("tk") and k[2:].isdigit() and k == k.lower() for k in keys)
    assert tenant_key("Acme") == tenant_key("Acme")
