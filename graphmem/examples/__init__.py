"""The example scenario files shipped with graphmem (format: docs/format.md).

* ``scenarios.json`` — structured events (``source``, ``set``, ``revoke``, ``quote``, …) and the
  as-of / history / why / path answers they must give;
* ``messages.json`` — the same kind of stories told in free text (English and Chinese), turned
  into events by the extractor.

They are package data, so ``graphmem eval --examples`` works after ``pip install`` as well as in a
clone; the tests read them from here too.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["EXAMPLES", "files", "path"]

EXAMPLES = ("scenarios.json", "messages.json")


def path(name: str) -> Path:
    """The path of one example file (``scenarios.json`` or ``messages.json``)."""
    if name not in EXAMPLES:
        raise ValueError(f"no example file {name!r}; there are {', '.join(EXAMPLES)}")
    return Path(__file__).resolve().parent / name


def files() -> list[Path]:
    """Every example file, structured first."""
    return [path(name) for name in EXAMPLES]
