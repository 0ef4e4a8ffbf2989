"""``ingest_bulk`` with the parse shared with a worker process (graphmem/extract/parse_pool.py)
writes exactly what a one-process parse writes: the same ledger, idempotent ids (a re-import
parses and writes nothing), and a projection that a replay of the ledger reproduces."""

from __future__ import annotations

import json
from pathlib import Path

from graphmem.extract import RuleExtractor, parse_pool
from graphmem.extract.score import load

from test_rebuild import canonical_hash

DATA = Path(__file__).parent.parent / "data" / "extraction"


def _rows() -> list[dict]:
    rows = load(DATA / "tune.jsonl") + load(DATA / "heldout.jsonl")
    return [{"id": f"T{i}", "speaker": r.get("speaker", "lin"), "at": r["at"], "text": r["text"]}
            for i, r in enumerate(rows)]


def _ledger(mem) -> list[tuple[str, str]]:
    return [(e["op"], e["payload"]) for e in mem.events()]


def test_the_worker_changes_nothing_written(store, driver, monkeypatch):
    rows = _rows()
    assert len(rows) >= 300
    alone, shared = store.for_tenant(f"{store.tenant}-alone"), store.for_tenant(f"{store.tenant}-shared")
    try:
        monkeypatch.setenv("GRAPHMEM_PARSE_WORKERS", "0")
        alone.ingest_bulk(rows, embed=False, batch_size=200)
        monkeypatch.setenv("GRAPHMEM_PARSE_WORKERS", "1")
        monkeypatch.setattr(parse_pool, "_broken", False)
        monkeypatch.setattr(parse_pool, "CHUNK", 16)
        before = parse_pool.worker_texts
        ahead: list[int] = []
        parse_ahead = parse_pool.parse_ahead
        monkeypatch.setattr(parse_pool, "parse_ahead", lambda texts: ahead.append(len(texts)) or parse_ahead(texts))
        shared.ingest_bulk(rows, embed=False, batch_size=200)
        assert parse_pool.worker_texts > before, "the worker parsed nothing: the test compared nothing"
        assert max(ahead) >= parse_pool.MIN_TEXTS, "no batch was parsed ahead: the test compared nothing"
        assert _ledger(shared) == _ledger(alone)
        drew = sum(bool(json.loads(payload).get("drawn")) for _, payload in _ledger(shared))
        assert drew > 100  # the messages drew events: the parses were used

        parsed: list[int] = []
        parse_many = RuleExtractor.parse_many
        monkeypatch.setattr(RuleExtractor, "parse_many", lambda self, texts: parsed.append(len(texts))
                            or parse_many(self, texts))
        again = shared.ingest_bulk(rows, embed=False, batch_size=200)  # the same ids: nothing new
        assert all(r.duplicate for r in again)
        assert sum(parsed) == 0  # and nothing parsed for it: the stored ids were read first
        projection = canonical_hash(driver, shared.tenant)
        shared.rebuild()
        assert canonical_hash(driver, shared.tenant) == projection
    finally:
        parse_pool.shutdown()
        alone.drop_tenant()
        shared.drop_tenant()
