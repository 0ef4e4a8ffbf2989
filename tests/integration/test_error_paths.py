"""Errors from a real store: NotFoundError says what was not found; an OSError of the caller's own
code (an extractor reading a file) is not turned into "no Neo4j answers", and nothing is written."""

from __future__ import annotations

import pytest

from graphmem import GraphMem
from graphmem.core.errors import ConnectionError_, NotFoundError


class FileExtractor:
    """An extractor whose rules file is missing: its OSError is the caller's, not the driver's."""

    def extract(self, message, context):
        with open("/nonexistent/graphmem-rules.json") as f:
            return f.read()


def test_an_extractors_oserror_reaches_the_caller_as_itself(neo4j_target, store, driver):
    with GraphMem(neo4j_target.settings, tenant=store.tenant, driver=driver, extractor=FileExtractor(),
                  install_schema=False) as mem:
        with pytest.raises(FileNotFoundError) as err:
            mem.ingest("the port is 9000", id="m1", speaker="lin")
        assert not isinstance(err.value, ConnectionError_)
        assert "graphmem-rules.json" in str(err.value)
        assert mem.events_page(after=0, limit=10) == []  # nothing was written


def test_not_found_names_kind_and_id(store):
    with pytest.raises(NotFoundError) as err:
        store.confirm_erase("no-such-request")
    assert (err.value.kind, err.value.id) == ("erase request", "no-such-request")
    assert str(err.value) == "unknown erase request 'no-such-request'"
