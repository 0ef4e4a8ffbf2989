"""The labelled-set scorer: rows of an assistant or a tool, and a revoke's date."""

from __future__ import annotations

from graphmem.extract import RuleExtractor
from graphmem.extract.score import score

ROW = {"lang": "en", "family": "revoke", "speaker": "lin", "at": "2026-03-10T10:00:00Z"}


def test_a_revoke_label_dates_compare_with_the_effective_date():
    row = {**ROW, "text": "I quit Initech last month.",
           "context": [{"uid": "e1", "topic": "employer", "value": "Initech", "valid_from": "2025-01-01T00:00:00Z"}],
           "expect": [{"op": "revoke", "subject": "lin", "topic": "employer", "valid_from": "2026-02-01"}]}
    assert score(RuleExtractor(), [row])["families"]["all"]["matched"] == 1
    wrong = {**row, "expect": [{**row["expect"][0], "valid_from": "2026-03-01"}]}
    assert score(RuleExtractor(), [wrong])["families"]["all"]["matched"] == 0


def test_assistant_and_tool_rows_are_scored_through_the_roles_gate():
    rows = [{**ROW, "family": "role", "text": "Noted: you live in Denver.", "role": "assistant", "expect": []},
            {**ROW, "family": "role", "text": '{"city": "Denver"}', "role": "tool", "expect": []},
            {**ROW, "family": "statement", "text": "I live in Denver.",
             "expect": [{"op": "set", "subject": "lin", "topic": "home_city", "value": "Denver"}]}]
    result = score(RuleExtractor(), rows)
    assert result["families"]["role"] == {**result["families"]["role"], "sentences": 2, "drawn": 0}
    assert result["families"]["statement"]["matched"] == 1
