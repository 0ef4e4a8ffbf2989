"""The repository stands alone: nothing reads outside it, and the data it needs is inside it.

This file is the one place allowed to name the folder beside the repository (``../shared``,
where the project's upstream copies of the example files may live): it compares them with the
ones shipped here when that folder exists, and passes — saying so — when it does not.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from graphmem import examples

ROOT = Path(__file__).resolve().parents[2]
UPSTREAM = ROOT.parent / "shared" / "eval"  # compared with when present, never needed
THIS = Path(__file__).resolve().relative_to(ROOT).as_posix()

# Paths that climb out of the repository into a sibling 'shared' folder, however spelled.
OUTSIDE = re.compile(r"""\.\./shared\b|["']shared["']\s*/|/\s*["']shared["']|parent\s*/\s*["']shared""")
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", ".pytest_cache", ".hypothesis", ".graphmem",
             "artifacts", "target", "build", "dist"}


def _checked_files() -> list[Path]:
    """Code and build files: Python, the Makefile, CI, TOML/YAML/shell, Cypher, and the docs."""
    out = []
    for p in ROOT.rglob("*"):
        rel = p.relative_to(ROOT)
        if not p.is_file() or SKIP_DIRS & set(rel.parts[:-1]) or any(x.endswith(".egg-info") for x in rel.parts):
            continue
        if (p.suffix in {".py", ".toml", ".cfg", ".ini", ".yml", ".yaml", ".sh", ".cypher", ".md", ".xml"}
                or p.name in {"Makefile", "Dockerfile"} or rel.parts[0] == ".ci"):
            out.append(p)
    return out


def test_nothing_resolves_a_path_outside_the_repository():
    files = _checked_files()
    assert any(p.name == "Makefile" for p in files) and any(p.parts[-2] == ".ci" for p in files)
    offenders = []
    for p in files:
        rel = p.relative_to(ROOT).as_posix()
        if rel == THIS:
            continue
        for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                offenders.append(f"{rel}:{n}: {line.strip()}")
    assert offenders == [], "paths outside the repository:\n" + "\n".join(offenders)


def test_the_check_would_see_such_paths():
    for line in ['graphmem eval ../shared/eval/scenarios.json', 'ROOT.parent / "shared"',
                 "Path(__file__).parent.parent.parent / 'shared' / 'data'", 'SHARED = ROOT.parent/"shared"']:
        assert OUTSIDE.search(line), line
    for line in ["the shared default extractor", "a method shared by both clients", "shared_buffers"]:
        assert not OUTSIDE.search(line), line


def test_the_example_files_ship_with_the_package():
    for p in examples.files():
        assert p.is_file() and p.parent == Path(examples.__file__).resolve().parent
        scenarios = json.loads(p.read_text(encoding="utf-8"))
        assert scenarios and all({"id", "events", "queries"} <= set(s) for s in scenarios)
    assert [p.name for p in examples.files()] == ["scenarios.json", "messages.json"]


def _format_body(text: str) -> str:
    """From the first rule of the format on: the part the two documents share word for word."""
    return text[text.index("Times are ISO 8601."):].strip()


def test_examples_and_format_match_the_upstream_copies_when_present(note):
    if not UPSTREAM.is_dir():
        note(f"{UPSTREAM} is absent: the example files were not compared with an upstream copy (nothing needs it)")
        return
    for p in examples.files():
        upstream = UPSTREAM / p.name
        assert upstream.is_file(), f"{upstream} is missing upstream"
        assert json.loads(p.read_text(encoding="utf-8")) == json.loads(upstream.read_text(encoding="utf-8")), (
            f"graphmem/examples/{p.name} differs from {upstream}: copy the newer one over the other")
    fmt = UPSTREAM / "FORMAT.md"
    if fmt.is_file():
        assert _format_body((ROOT / "docs" / "format.md").read_text(encoding="utf-8")) == _format_body(
            fmt.read_text(encoding="utf-8")), f"docs/format.md differs from {fmt} after its introduction"
    note(f"graphmem/examples and docs/format.md compared with {UPSTREAM}: the same")
