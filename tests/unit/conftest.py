"""Fixtures the unit tests share."""

from __future__ import annotations

import pytest

from graphmem.extract import RuleExtractor, parse_pool


@pytest.fixture
def pooled(monkeypatch):
    """The parse worker on, for any number of texts, in small chunks (so both processes parse some)."""
    monkeypatch.setenv("GRAPHMEM_PARSE_WORKERS", "1")
    monkeypatch.setattr(parse_pool, "MIN_TEXTS", 0)
    monkeypatch.setattr(parse_pool, "CHUNK", 16)
    monkeypatch.setattr(parse_pool, "_broken", False)
    yield
    parse_pool.shutdown()


@pytest.fixture(scope="module")
def ex() -> RuleExtractor:
    """The rule extractor, one per test module (its spaCy pipelines load once per module)."""
    return RuleExtractor()
