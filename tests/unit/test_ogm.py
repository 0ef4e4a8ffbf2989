"""The neomodel classes and the Cypher files describe the same graph."""

from __future__ import annotations

import re

from graphmem.interfaces import ogm
from graphmem.store import queries


def test_every_label_in_cypher_has_an_ogm_class():
    labels = set()
    for name in queries.names():
        labels.update(re.findall(r"\(\w*:([A-Z]\w+)", queries.get(name).text))
    assert labels <= {m.__name__ for m in ogm.MODELS}


def test_every_fact_property_written_exists_in_the_ogm():
    text = queries.get("write/facts").text
    block = text.split("CREATE (f:Fact {", 1)[1].split("})", 1)[0]
    written = set(re.findall(r"(\w+):", block))
    assert written <= set(ogm.Fact.defined_properties(rels=False))


def test_every_ogm_property_is_read_or_written_by_some_query():
    all_text = "\n".join(queries.get(n).text for n in queries.names())
    for model in ogm.MODELS:
        for prop in model.defined_properties(rels=False):
            assert re.search(rf"\b{prop}\b", all_text), f"{model.__name__}.{prop} is not in any .cypher file"
