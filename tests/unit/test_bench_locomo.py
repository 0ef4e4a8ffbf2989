"""bench-extract --locomo on a made-up file in LoCoMo's shape: yield per conversation, and a seeded
sample that comes out the same twice (no LoCoMo text is in this repository)."""

from __future__ import annotations

import json

import pytest

from graphmem.bench.bench_extract import locomo_turns, run_locomo


@pytest.fixture
def tiny(tmp_path):
    conv = {"speaker_a": "Ann", "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Bo! How are you?"},
                          {"speaker": "Bo", "dia_id": "D1:2", "text": "I went to a pottery class yesterday."},
                          {"speaker": "Ann", "dia_id": "D1:3", "text": "My hometown is Dayton."}],
            "session_2_date_time": "10:00 am on 20 May, 2023",
            "session_2": [{"speaker": "Bo", "dia_id": "D2:1", "text": "Sounds great!"}]}
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps([{"sample_id": "c-1", "conversation": conv},
                                {"sample_id": "c-2", "conversation": {**conv}}]))
    return path


def test_turns_carry_the_session_time(tiny):
    turns = locomo_turns(tiny, ["c-1"])
    assert [(c, d, m.speaker) for c, d, m in turns][:2] == [("c-1", "D1:1", "ann"), ("c-1", "D1:2", "bo")]
    assert turns[3][2].at.isoformat() == "2023-05-20T10:00:00+00:00"
    with pytest.raises(ValueError):
        locomo_turns(tiny, ["nope"])


def test_yield_and_a_reproducible_sample(tiny, tmp_path):
    out1, out2 = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    r = run_locomo(tiny, None, 2, 7, out1)
    run_locomo(tiny, None, 2, 7, out2)
    assert r["conversations"]["c-1"]["turns"] == 4 and r["conversations"]["c-1"]["drawing"] == 2
    assert r["yield"] == 0.5 and r["episodes"] == 2 and r["facts"] == 2
    assert out1.read_text() == out2.read_text()
    rows = [json.loads(x) for x in out1.read_text().splitlines()]
    assert len(rows) == 2 and all({"conversation", "dia_id", "turn", "event"} <= set(x) for x in rows)


def test_an_ingest_only_run_keeps_the_recall_figures(tmp_path):
    from graphmem.bench.bench_recall import save
    assert save({"scores": {"all": {}}}, tmp_path).name == "recall-locomo.json"
    assert save({"scores": {}}, tmp_path).name == "recall-locomo-ingest.json"  # --ingest-only: nothing asked
    assert json.loads((tmp_path / "recall-locomo.json").read_text()) == {"scores": {"all": {}}}
