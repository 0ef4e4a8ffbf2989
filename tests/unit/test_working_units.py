"""Working memory's pure parts: the budget decision, the extractive summary, secret patterns, noise."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.recall.budget import count_tokens
from graphmem.working.endgate import is_noise
from graphmem.core.errors import SensitiveDataError
from graphmem.governance.sensitive import SensitiveConfig, scrub, scrub_obj
from graphmem.working.working import WorkingPolicy
from graphmem.working.working_budget import decide, item_tokens, summarize


@dataclass
class It:
    id: str
    type: str
    text: str
    seq: int
    importance: float = 0.5
    author: str | None = "lin"
    last_used_at: datetime | None = None
    covers: list[str] = field(default_factory=list)

    @property
    def tokens(self) -> int:
        return item_tokens(self.type, self.author, self.text)


def _apply(live: list[It], new: It, policy: WorkingPolicy) -> tuple[list[It], object]:
    d = decide(live, new.tokens, policy)
    gone = set(d.evict) | set(d.replaces)
    out = [i for i in live if i.id not in gone]
    if d.summary_text:
        covers = [c for i in live if i.id in d.replaces for c in (i.covers or [i.id])]
        out.append(It(f"s{new.seq}", "summary", d.summary_text, new.seq - 1, author="graphmem", covers=covers))
    out.append(new)
    return out, d


@settings(max_examples=60, deadline=None)
@given(sizes=st.lists(st.integers(1, 60), min_size=1, max_size=60), budget=st.integers(200, 2000),
       strategy=st.sampled_from(["evict", "compress"]))
def test_the_budget_is_never_exceeded(sizes, budget, strategy):
    policy = WorkingPolicy(budget_tokens=budget, strategy=strategy)
    live: list[It] = []
    for n, size in enumerate(sizes):
        new = It(f"t{n}", "turn", f"Sentence number {n}. " + "word " * size, seq=2 * n + 10)
        live, d = _apply(live, new, policy)
        assert sum(i.tokens for i in live) <= budget
        assert d.used_after == sum(i.tokens for i in live)
        if d.used_with_new >= 0.8 * budget:
            assert d.warning


def test_compress_cites_what_it_replaces_and_keeps_recent_turns():
    policy = WorkingPolicy(budget_tokens=165, strategy="compress", keep_recent=2)
    live = [It(f"t{n}", "turn", f"Turn {n} says something useful. " + "more " * 20, seq=n) for n in range(4)]
    d = decide(live, live[0].tokens, policy)
    assert d.replaces == ["t0", "t1"] and d.summary_text.startswith("Summary of 2 earlier items:")
    assert "Turn 1 says something useful." in d.summary_text


def test_evict_takes_lowest_importance_then_least_recently_used():
    t = datetime(2026, 1, 1, tzinfo=timezone.utc)
    live = [It("a", "turn", "x " * 50, 1, importance=0.9), It("b", "turn", "y " * 50, 2, importance=0.1,
                                                            last_used_at=t.replace(day=2)),
            It("c", "turn", "z " * 50, 3, importance=0.1, last_used_at=t)]
    d = decide(live, 40, WorkingPolicy(budget_tokens=100, strategy="evict"))
    assert d.evict[:2] == ["c", "b"]


def test_summary_respects_its_cap():
    items = [It(f"t{n}", "turn", f"Sentence {n} " * 10 + ".", n) for n in range(30)]
    text = summarize(items, 80)
    assert item_tokens("summary", "graphmem", text) <= 80 and "Summary of 30 earlier items" in text


@pytest.mark.parametrize("secret,name", [
    ("sk-live-ABCDEFGHIJKLMNOPQRSTUV", "api_key"), ("AKIAABCDEFGHIJKLMNOP", "api_key"),
    ("ghp_" + "a" * 36, "api_key"), ("Bearer abcdefghijklmnopqrstuvwxyz", "bearer_token"),
    ("4111 1111 1111 1111", "card_number"), ("password: hunter22", "password"),
])
def test_default_patterns_mask_secrets(secret, name):
    text, found = scrub(f"here: {secret} ok", SensitiveConfig())
    assert secret not in text and f"[redacted:{name}]" in text and name in found


def test_card_numbers_need_the_luhn_check_and_refuse_mode_refuses():
    assert scrub("order 1234 5678 9012 3456", SensitiveConfig())[1] == []
    with pytest.raises(SensitiveDataError):
        scrub("card 4111111111111111", SensitiveConfig(mode="refuse"))
    assert scrub_obj({"a": ["sk-test-ABCDEFGHIJKLMNOPQRST"]}, SensitiveConfig())[0] == {"a": ["[redacted:api_key]"]}


def test_patterns_come_from_configuration(tmp_path):
    p = tmp_path / "p.json"
    p.write_text('{"employee_id": "EMP-\\\\d{6}"}')
    cfg = SensitiveConfig.from_env({"GRAPHMEM_SENSITIVE_PATTERNS": str(p), "GRAPHMEM_SENSITIVE_MODE": "mask"})
    assert scrub("EMP-123456 sk-live-ABCDEFGHIJKLMNOPQRSTUV", cfg)[1] == ["employee_id"]


def test_noise():
    assert is_noise("ok") and is_noise("Thanks!") and is_noise("好的")
    assert not is_noise("I moved to Hewan Rd.") and not is_noise("我搬到河湾路了")
    # a lone word is noise unless it answers the agent's question; an acknowledgement always is
    assert is_noise("Paris") and not is_noise("Paris", answers_question=True)
    assert is_noise("ok", answers_question=True) and is_noise("yes!", answers_question=True)
    assert count_tokens("x") == 1


@given(st.text(min_size=1, max_size=20), st.text(min_size=1, max_size=20),
       st.text(min_size=1, max_size=20), st.text(min_size=1, max_size=20))
def test_a_working_items_source_id_reads_back_and_never_meets_another(s1, i1, s2, i2):
    """The end gate names a kept item's source "session/item" (each part escaped); erase reads
    the pair back from it. Two different pairs never share an id."""
    from graphmem.working.working_store import item_of_source, item_source_id, wm_id
    sid = item_source_id(s1, i1)
    assert item_of_source(sid) == (s1, i1)
    assert sid == wm_id(s1, i1).replace(":", "/", 1)  # the id the end gate has always written
    assert (sid == item_source_id(s2, i2)) == ((s1, i1) == (s2, i2))
