"""Reading temporal knowledge-graph files: YAGO11k and WIKIDATA12k, as published in the data
folder of the TILP repository (github.com/xiongsiheng/TILP, ``data/YAGO11k``, ``data/WIKIDATA12k``;
the facts are YAGO's, CC BY, and Wikidata's, CC0). graphmem ships none of them: see docs/data.md.

Line format: ``subject_id <TAB> relation_id <TAB> object_id <TAB> start_year <TAB> end_year``,
with ``entity2id.txt`` and ``relation2id.txt`` beside. Years are whole years and inclusive:
``[start, end]`` is valid from Jan 1 of ``start`` to Jan 1 of ``end + 1``. Many relations hold
several objects at once, so every relation is a many-valued topic.

The data is taken as given. Years Python cannot represent (before 1 or after 9998) are skipped
and *counted*, never silently dropped: :attr:`KGFile.skipped` says how many and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

__all__ = ["KGFact", "KGFile", "PARTS", "find_files", "load", "year_start"]

PARTS = ("train.txt", "valid.txt", "test.txt")


def year_start(year: int) -> datetime:
    return datetime(year, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True)
class KGFact:
    subject: str
    relation: str
    object: str
    start: int
    end: int

    @property
    def valid_from(self) -> datetime:
        return year_start(self.start)

    @property
    def valid_to(self) -> datetime:
        return year_start(self.end + 1)

    def event(self, prefix: str = "") -> dict[str, Any]:
        """The fact as a docs/format.md ``set`` with an entity value and its interval."""
        return {"op": "set", "subject": prefix + self.subject, "topic": self.relation,
                "object": prefix + self.object, "valid_from": self.valid_from.isoformat(),
                "valid_to": self.valid_to.isoformat()}


@dataclass
class KGFile:
    path: Path
    facts: list[KGFact] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)

    @property
    def relations(self) -> list[str]:
        return sorted({f.relation for f in self.facts})


def _names(path: Path) -> dict[str, str]:
    """id → name from entity2id.txt / relation2id.txt (name first, id second, extra columns ignored)."""
    out: dict[str, str] = {}
    if not path.is_file():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        if len(parts) >= 2:
            name = parts[0].strip()
            if name.startswith("<") and name.endswith(">"):
                name = name[1:-1]
            out[parts[1].strip()] = name
    return out


def load(path: str | Path) -> KGFile:
    """Read one ``train.txt`` / ``valid.txt`` / ``test.txt`` with the id maps beside it."""
    path = Path(path)
    entities = _names(path.with_name("entity2id.txt"))
    relations = _names(path.with_name("relation2id.txt"))
    out = KGFile(path)
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split("\t")
        if len(parts) != 5:
            out.skipped["malformed line"] = out.skipped.get("malformed line", 0) + 1
            continue
        s, r, o, start, end = (p.strip() for p in parts)
        try:
            y0, y1 = int(start), int(end)
        except ValueError:
            out.skipped["year is not a number"] = out.skipped.get("year is not a number", 0) + 1
            continue
        if not (1 <= y0 <= 9998 and 1 <= y1 <= 9998):
            out.skipped["year outside 1..9998"] = out.skipped.get("year outside 1..9998", 0) + 1
            continue
        if y1 < y0:
            out.skipped["end year before start year"] = out.skipped.get("end year before start year", 0) + 1
            continue
        out.facts.append(KGFact(entities.get(s, s), relations.get(r, r), entities.get(o, o), y0, y1))
    return out


def find_files(paths: Sequence[str | Path]) -> list[Path]:
    """The fact files named by ``paths``: a file is itself; a folder holding ``train.txt`` /
    ``valid.txt`` / ``test.txt`` gives those (in that order); a folder of such folders (TILP's
    ``data/``, or a copy with YAGO11k and WIKIDATA12k side by side) gives each one's, YAGO's
    first (the order the published benchmark figures were taken in), then by name.
    A path that is none of these is a :class:`FileNotFoundError`, never silently nothing."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_file():
            out.append(p)
            continue
        if not p.is_dir():
            raise FileNotFoundError(f"{p}: no such file or folder")
        here = [p / part for part in PARTS if (p / part).is_file()]
        if not here:
            for sub in sorted((d for d in p.iterdir() if d.is_dir()),
                              key=lambda d: ("yago" not in d.name.lower(), d.name.lower())):
                here += [sub / part for part in PARTS if (sub / part).is_file()]
        if not here:
            raise FileNotFoundError(f"{p}: no train.txt, valid.txt or test.txt in it or in a folder inside it")
        out += here
    return out
