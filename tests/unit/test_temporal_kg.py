"""The temporal-KG reader: ids to names, inclusive years, odd rows counted not dropped silently."""

from __future__ import annotations

from graphmem.bench.temporal_kg import load


def test_reads_names_and_inclusive_years(tmp_path):
    (tmp_path / "entity2id.txt").write_text("<Lew_Wallace>\t1\n<Whig>\t2\n<Free_Soil>\t3\n")
    (tmp_path / "relation2id.txt").write_text("<isAffiliatedTo>\t8\n")
    (tmp_path / "train.txt").write_text("1\t8\t2\t1847\t1848\n1\t8\t3\t1848\t1848\n1\t8\t2\t-405\t1848\nbad line\n")
    kg = load(tmp_path / "train.txt")
    assert [(f.subject, f.relation, f.object) for f in kg.facts] == [
        ("Lew_Wallace", "isAffiliatedTo", "Whig"), ("Lew_Wallace", "isAffiliatedTo", "Free_Soil")]
    assert kg.facts[0].valid_from.year == 1847 and kg.facts[0].valid_to.year == 1849
    assert kg.skipped == {"year outside 1..9998": 1, "malformed line": 1}
    e = kg.facts[1].event("x:")
    assert e["object"] == "x:Free_Soil" and e["valid_to"].startswith("1849-01-01")


def test_chunks_split_each_replica_evenly():
    from graphmem.bench.kg_workload import chunks
    facts = list(range(61_039))  # chunks only slices the list
    got = [(replica, len(part)) for replica, part in chunks(facts, 130_000, 20_000)]  # type: ignore[arg-type]
    assert got == [(0, 20_347), (0, 20_346), (0, 20_346), (1, 20_347), (1, 20_346), (1, 20_346), (2, 7_922)]
    assert [x for _, part in chunks(facts, 130_000, 20_000) for x in part] == facts * 2 + facts[:7_922]  # type: ignore[arg-type]
    assert [len(p) for _, p in chunks(facts, 500, 20_000)] == [500]  # type: ignore[arg-type]
