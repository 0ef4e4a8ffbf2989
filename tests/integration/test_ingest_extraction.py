"""Issue 14 end to end: what the extractor draws, applied by the store (real Neo4j).

An old document quoted in any phrasing stays history; a precision trap writes nothing; a
temporary value without an end does not replace the standing one.
"""

from __future__ import annotations


def test_a_quoted_old_contract_never_becomes_current(store):
    store.ingest("我在晨光科技工作。", id="m1", speaker="lin", at="2026-01-10T09:00:00Z")
    store.ingest("这是2025年3月的合同，上面写着我在星辰科技工作。", id="m2", speaker="lin", at="2026-09-01T09:00:00Z")
    store.ingest("the 2024 lease says I live at 12 Oak Street.", id="m3", speaker="lin", at="2026-09-02T09:00:00Z")
    assert store.as_of("lin", "employer").value == "晨光科技"
    assert store.as_of("lin", "employer", valid_at="2025-06-01").value == "星辰科技"
    assert store.as_of("lin", "home_address", valid_at="2025-06-01").value == "12 Oak Street"  # history
    assert store.as_of("lin", "home_address", valid_at="2023-12-31").value is None


def test_traps_write_nothing_and_statements_do(store):
    store.ingest("You mentioned you were allergic to pets earlier, how bad is it?", id="a", speaker="nate",
                 at="2026-03-01T09:00:00Z")
    store.ingest("My wife works at Google.", id="b", speaker="nate", at="2026-03-01T09:01:00Z")
    store.ingest("I might move to Berlin.", id="c", speaker="nate", at="2026-03-01T09:02:00Z")
    store.ingest("Starting Monday I'm with Acme Robotics.", id="d", speaker="nate", at="2026-03-05T09:00:00Z")
    assert store.as_of("nate", "allergy").values in ([], None)
    assert store.as_of("nate", "home_city").value is None
    assert store.as_of("nate", "employer", valid_at="2026-03-10").value == "Acme Robotics"
    assert store.as_of("nate", "employer", valid_at="2026-03-08").value is None  # Monday is Mar 9


def test_a_temporary_value_without_an_end_does_not_replace_the_standing_one(store):
    store.ingest("测试环境端口是8000。", id="p1", speaker="ops", about="svc", at="2026-09-01T09:00:00Z")
    store.ingest("测试环境暂时用9000", id="p2", speaker="ops", about="svc", at="2026-09-02T09:00:00Z")
    assert store.as_of("svc", "port", env="test").value == "8000"
    assert store.as_of("svc", "port", env="test", include_candidates=True).value == "9000"  # visible on request
    store.ingest("测试环境这周临时用9001", id="p3", speaker="ops", about="svc", at="2026-09-02T10:00:00Z")
    assert store.as_of("svc", "port", env="test", valid_at="2026-09-04").value == "9001"
    assert store.as_of("svc", "port", env="test", valid_at="2026-09-08").value == "8000"
