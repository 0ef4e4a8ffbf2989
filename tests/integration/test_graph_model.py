"""docs/graph-model.md says what the graph holds: its tables are drawn from a real tenant (tests/graph_model.py)."""

from __future__ import annotations

import re

from tests import graph_model


def test_the_graph_model_page_matches_the_graph(neo4j_target, driver):
    drawn = graph_model.draw(neo4j_target.settings, driver)
    assert "**undescribed**" not in drawn, "a label or type without a sentence in tests/graph_model.MEANING"
    page = graph_model.PAGE.read_text(encoding="utf-8")
    assert graph_model.generated_part(page) == drawn, (
        "docs/graph-model.md is out of date: run `python -m tests.graph_model --write` with NEO4J_URI set")


def test_every_label_the_schema_names_is_on_the_page():
    schema = (graph_model.ROOT / "cypher" / "schema.cypher").read_text(encoding="utf-8")
    labels = set(re.findall(r"FOR \((?:\w+):(\w+)", schema)) | set(re.findall(r"\|(\w+)", schema))
    page = graph_model.PAGE.read_text(encoding="utf-8")
    missing = sorted(label for label in labels if f"`:{label}`" not in page)
    assert not missing, f"labels in cypher/schema.cypher missing from docs/graph-model.md: {missing}"


def test_the_browser_style_styles_every_label_and_type():
    style = (graph_model.ROOT / "cypher" / "browser" / "style.grass").read_text(encoding="utf-8")
    styled = set(re.findall(r"^(?:node|relationship)\.(\w+)", style, flags=re.M))
    missing = sorted(set(graph_model.MEANING) - styled)
    assert not missing, f"cypher/browser/style.grass has no style for {missing}"
