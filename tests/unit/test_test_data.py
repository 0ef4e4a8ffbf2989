"""The generated temporal-KG sample (tests/data/temporal-kg) has the shape the tests rely on and
that tests/data/README.md promises: the real datasets' layout, overlapping many-valued relations,
hubs, three-hop chains, and odd rows that are counted, not dropped."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from graphmem.bench.temporal_kg import PARTS, find_files, load

KG = Path(__file__).resolve().parents[1] / "data" / "temporal-kg"


def test_layout_is_tilps():
    assert [p.relative_to(KG).as_posix() for p in find_files([KG])] == [
        f"{d}/{part}" for d in ("yago-like", "wikidata-like") for part in PARTS]
    for d in ("yago-like", "wikidata-like"):
        assert (KG / d / "entity2id.txt").is_file() and (KG / d / "relation2id.txt").is_file()


def test_what_the_tests_take_from_it():
    train = load(KG / "yago-like" / "train.txt")
    assert len(train.facts) >= 3000  # test_faults imports the first 3,000
    assert train.skipped == {"year outside 1..9998": 1, "end year before start year": 1, "malformed line": 1}
    first_rows = (KG / "yago-like" / "train.txt").read_text().splitlines()[:3000]
    assert len(load(KG / "yago-like" / "train.txt").facts[:3000]) == 3000 and all(
        len(r.split("\t")) == 5 and int(r.split("\t")[3]) >= 1 for r in first_rows)
    test = (KG / "yago-like" / "test.txt").read_text().splitlines()
    assert len(test) >= 600 and all(1000 <= int(r.split("\t")[3]) <= 9998 for r in test[:600])  # test_import
    assert not any(r.startswith("<") for r in load(KG / "yago-like" / "test.txt").relations)  # ids became names


def test_shape_like_the_real_data():
    for d in ("yago-like", "wikidata-like"):
        facts = [f for p in find_files([KG / d]) for f in load(p).facts]
        groups: dict[tuple[str, str], list] = {}
        for f in facts:
            groups.setdefault((f.subject, f.relation), []).append(f)
        many = [g for g in groups.values() if len(g) > 1]
        overlapping = [g for g in many if any(a is not b and a.start <= b.end and b.start <= a.end
                                              for a in g for b in g)]
        assert len(many) >= 300 and len(overlapping) >= 50, d
        assert sum(f.start == f.end for f in facts) >= 100, d  # one-year intervals
        assert Counter(f.object for f in facts).most_common(1)[0][1] >= 60, d  # hubs
        by_subject: dict[str, list] = {}
        for f in facts:
            by_subject.setdefault(f.subject, []).append(f)
        chains = sum(1 for f1 in facts for f2 in by_subject.get(f1.object, []) for f3 in by_subject.get(f2.object, [])
                     if max(f1.start, f2.start, f3.start) <= min(f1.end, f2.end, f3.end))
        assert chains >= 20, d
