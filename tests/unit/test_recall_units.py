"""Recall's pure parts: the token estimate, fences, task analysis, the user page parser, fitting."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem import ValidationError
from graphmem.recall.budget import count_tokens
from graphmem.recall.embed import HashingEmbedder, embedder_from_env
from graphmem.core.errors import ConfigurationError
from graphmem.recall.context_text import fit
from graphmem.recall.wording import fence
from graphmem.recall.memory_context import ContextItem, MemoryContext, SourceRef
from graphmem.core.tenant_key import tenant_key
from graphmem.recall.terms import analyse
from graphmem.recall.vectors import vector_k
from graphmem.recall.userpage import PageLine, page_events, parse_page

NOW = datetime(2026, 10, 5, tzinfo=timezone.utc)


def test_token_estimate_counts_cjk_per_character_and_words_by_four_letters():
    assert count_tokens("") == 0
    assert count_tokens("河湾路") == 3
    assert count_tokens("deployment") == 3  # 10 letters / 4, rounded up
    assert count_tokens("port 9000.") == 1 + 2 + 1
    assert count_tokens("a\nb") == 3


@given(st.text(max_size=300))
def test_a_fence_is_never_closed_by_its_content(text):
    block = fence(text).split("\n")
    bar = block[0][:-len("text")]
    inner = block[1:-1]
    assert block[-1] == bar
    assert not any(line.strip() and set(line.strip()) == {"`"} and len(line.strip()) >= len(bar) for line in inner)


def test_analyse_finds_topics_identifiers_and_mentions_in_both_languages():
    en = analyse("Where should I send lin's package? Error ERR_CONN_REFUSED on deploy.port")
    assert "home_address" in en.topics and "deploy.port" in en.topics
    assert "ERR_CONN_REFUSED" in en.terms and "lin" in en.mentions
    zh = analyse("王芳10月5日的收件地址是哪里？")
    assert "home_address" in zh.topics and "王芳" in zh.mentions and "地址" in zh.terms
    q = analyse('say "hi" OR tenant:x').lucene('t"1')
    key = tenant_key('t"1')
    assert q.startswith(f'+tenant_key:"{key}"^0 +(') and '"\\"hi\\""' not in q and '"tenant:x"' in q
    # the scope is the tenant's key, whatever the name: one with no word character is scoped too
    assert analyse("locker code").lucene("***") == f'+tenant_key:"{tenant_key("***")}"^0 +("locker" OR "code")'


def _item(n: int, text: str) -> ContextItem:
    return ContextItem(kind="fact", subject="s", topic=f"t{n}", value=f"v{n}", score=1.0 / (n + 1),
                       source=SourceRef(id=f"src{n}", kind="message", text=text))


@settings(max_examples=60)
@given(st.lists(st.text(min_size=0, max_size=120), min_size=1, max_size=12), st.integers(min_value=64, max_value=900))
def test_fit_keeps_a_ranked_prefix_within_budget_and_reports_the_rest(texts, budget):
    items = [_item(n, t) for n, t in enumerate(texts)]
    ctx = MemoryContext(task="x", tenant="t", valid_at=NOW, known_at=NOW, ledger_version=1, items=items,
                        budget_tokens=budget)
    out = fit(ctx)
    assert out.used_tokens == count_tokens(out.text)
    if len(out.text.split("\n")) > 3:  # more than the header
        assert out.used_tokens <= budget
    assert [i.topic for i in out.items] == [i.topic for i in items[:len(out.items)]]
    assert len(out.items) + len(out.left_out) == len(items)


def _said(n: int, text: str, day: int, session: str | None) -> ContextItem:
    return ContextItem(kind="message", subject=f"p{n % 3}", score=1.0 / (n + 1), version=n, session=session,
                       source=SourceRef(id=f"m{n}", kind="message", at=NOW.replace(day=day, hour=n % 24), text=text))


@settings(max_examples=60)
@given(st.lists(st.tuples(st.booleans(), st.text(max_size=80), st.integers(1, 4), st.sampled_from([None, "s1", "s2"])),
                min_size=1, max_size=14), st.integers(min_value=64, max_value=900))
def test_fit_of_facts_and_what_was_said_counts_exactly_and_shows_turns_in_time_order(pieces, budget):
    """Messages are laid out grouped by the minute and session they were said in, in time order, while the budget keeps a
    ranked prefix: the text is exactly what was counted, and every kept turn sits under its group."""
    items = [_said(n, t, d, s) if said else _item(n, t) for n, (said, t, d, s) in enumerate(pieces)]
    out = fit(MemoryContext(task="x", tenant="t", valid_at=NOW, known_at=NOW, ledger_version=1, items=items,
                            budget_tokens=budget))
    assert out.used_tokens == count_tokens(out.text)
    assert [id(i) for i in out.items] == [id(i) for i in items[:len(out.items)]]
    assert len(out.items) + len(out.left_out) == len(items)
    kept = [i for i in out.items if i.kind == "message"]
    if kept:
        said = out.text.split("### What was said\n", 1)[1]
        heads = [line for line in said.split("\n") if line.startswith("Said ")]
        assert len(heads) == len({(i.source.at, i.session) for i in kept})
        where = [said.index(f"\n{i.source.id} ") for i in sorted(kept, key=lambda i: (i.source.at, i.session or ""))]
        assert where == sorted(where)


def test_user_page_parser_and_diff():
    lines = parse_page("# lin\n<!-- c -->\n- home_address: Hewan Rd  <!-- since 2026 -->\n- port [test]: \"9000\"\n")
    assert lines == [PageLine("home_address", "", "Hewan Rd"), PageLine("port", "test", "9000")]
    with pytest.raises(ValidationError):
        parse_page("- no colon here\n")
    current = [PageLine("home_address", "", "Qinghe Rd"), PageLine("trip_city", "", "Haicheng", fact="f1", bounded=True)]
    events = page_events("lin", current, lines, NOW, "lin", many=set())
    ops = [(e["op"], e.get("topic"), e.get("value"), e.get("fact")) for e in events]
    assert ops == [("source", None, None, None), ("set", "home_address", "Hewan Rd", None),
                   ("set", "port", "9000", None), ("retract", None, None, "f1")]
    assert all(e.get("source") == events[0]["id"] for e in events[1:])
    assert page_events("lin", current, current, NOW, None, many=set()) == []
    langs = [PageLine("language", "", "English"), PageLine("language", "", "中文")]
    edited = [PageLine("language", "", "English"), PageLine("language", "", "Français")]
    ops = [(e["op"], e.get("value")) for e in page_events("lin", langs, edited, NOW, None, many={"language"})]
    assert ops == [("source", None), ("set", "Français"), ("revoke", "中文")]
    with pytest.raises(ValidationError, match="one value"):
        page_events("lin", current, current + [PageLine("home_address", "", "Other Rd")], NOW, None, many=set())


def test_embedders():
    e = HashingEmbedder(64)
    a, b, c = e.embed(["restart ingestion workers", "restarting the ingestion worker", "河湾路"])
    cos = lambda x, y: sum(p * q for p, q in zip(x, y))  # noqa: E731
    assert cos(a, b) > cos(a, c) and abs(cos(a, a) - 1) < 1e-9
    assert embedder_from_env("") is None and isinstance(embedder_from_env("hashing"), HashingEmbedder)
    with pytest.raises(ConfigurationError):
        embedder_from_env("nonsense")
    try:  # the MiniLM extra is optional: without it, one clear line, never a download
        import sentence_transformers  # noqa: F401
    except ImportError:
        with pytest.raises(ConfigurationError, match=r"graphmem\[vectors\]"):
            embedder_from_env("minilm")


def _count_tokens_piece_by_piece(text: str) -> int:
    """The budget's rule written as plainly as possible: one pattern, piece by piece."""
    import math
    import re

    pieces = re.compile(r"(?P<cjk>[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af])"
                        r"|(?P<word>[A-Za-z\u00c0-\u024f]+)|(?P<num>[0-9]+)|(?P<nl>\n)|(?P<other>[^\s])")
    total = 0
    for m in pieces.finditer(text):
        size = {"word": 4, "num": 3}.get(m.lastgroup or "")
        total += math.ceil(len(m.group()) / size) if size else 1
    return total


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab Zé9０河湾路\n\t.-_かの한😀1")), max_size=80))
def test_count_tokens_is_the_piece_by_piece_rule_and_adds_up_over_lines(text):
    assert count_tokens(text) == _count_tokens_piece_by_piece(text)
    halves = text.split("\n", 1)
    if len(halves) == 2:  # fit() counts each block with its joining newline and skips the final count
        assert count_tokens(text) == count_tokens(halves[0]) + count_tokens("\n" + halves[1])


def test_loading_the_bundled_embedder_leaves_the_hosts_logging_alone():
    import logging
    import subprocess
    import sys

    code = ("import logging; from graphmem.recall.embed import WordLlamaEmbedder; WordLlamaEmbedder(); "
            "r = logging.getLogger(); print(len(r.handlers), r.level)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", str(logging.WARNING)]


@given(limit=st.integers(1, 500), oversample=st.integers(1, 200), mine=st.one_of(st.none(), st.integers(0, 10**7)),
       others=st.integers(0, 10**7))
def test_vector_k_asks_for_the_tenants_share_within_bounds(limit, oversample, mine, others):
    """A shared vector index is asked for enough hits to hold about ``limit`` of the tenant's, with a
    margin that grows with the other tenants' share (none when the tenant is alone); never more than
    the old fixed oversample, the most when counts are unknown."""
    everyone = (mine or 0) + others
    k = vector_k(limit, oversample, mine, everyone)
    most = limit * oversample
    if not mine or not everyone:
        assert k == most
    else:
        assert min(limit, most) <= k <= most
        expected_mine = k * mine / everyone  # the tenant's hits among k, on average
        assert k == most or expected_mine >= limit + limit * others / everyone - 1e-6
        if others == 0:
            assert k == min(limit, most)


def test_vector_k_examples():
    assert vector_k(40, 20, 10_000, 10_000) == 40       # alone in the index: no other tenant's hit takes a place
    assert vector_k(40, 20, 5_000, 10_000) == 120       # half the index: 80 hits hold 40, 40 more as the margin
    assert vector_k(40, 20, 100, 1_000_000) == 800      # a small tenant beside a big one: the most
    assert vector_k(40, 20, None, 1_000) == 800         # counts not kept yet
