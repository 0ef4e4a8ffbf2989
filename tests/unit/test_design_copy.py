"""docs/design.md is the semantics contract (shared DESIGN.md) kept in the repository; it must not drift."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "DESIGN.md"


def test_the_design_copy_is_the_contract():
    copy = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    if not SHARED.is_file():
        pytest.skip("no ../shared/DESIGN.md beside this clone to compare with")
    body = copy.split("-->\n\n", 1)[1]
    assert body == SHARED.read_text(encoding="utf-8"), "docs/design.md differs from ../shared/DESIGN.md: copy it again"
