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
