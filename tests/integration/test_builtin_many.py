"""Built-in many-valued topics (issue #43, "Many values"): ``allergy`` is many-valued in every
tenant without a declaration (graphmem.core.topics); a declaration of the tenant's own wins; the
implicit declaration is a ledger event, so rebuild replays the same answers; and a user page that
gives a one-valued topic two values says how to fix it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from graphmem.core.errors import ValidationError
from graphmem.core.topics import BUILTIN_ACTOR, BUILTIN_MANY

EXE = str(Path(sys.executable).parent / "graphmem")


def test_two_allergies_both_hold_without_a_declaration(store):
    store.set("sam", "allergy", "peanuts", valid_from="2026-01-01")
    store.set("sam", "allergy", "shellfish", valid_from="2026-02-01")
    assert sorted(store.as_of("sam", "allergy").values) == ["peanuts", "shellfish"]
    assert store.as_of("sam", "allergy", valid_at="2026-01-15").values == ["peanuts"]
    store.revoke("sam", "allergy", value="shellfish")
    assert store.as_of("sam", "allergy").values == ["peanuts"]


def test_the_declaration_is_one_ledger_event_by_graphmem(store):
    store.set("sam", "allergy", "peanuts")
    store.set("sam", "allergy", "shellfish")
    store.set("kim", "allergy", "dust")
    topics = [e for e in store.events() if e["op"] == "topic"]
    assert len(topics) == 1
    assert topics[0]["actor"] == BUILTIN_ACTOR and json.loads(topics[0]["payload"])["cardinality"] == "many"


def test_an_extracted_sentence_with_two_allergies_keeps_both(store):
    store.ingest("I'm allergic to peanuts and shellfish.", id="m1", speaker="nate", at="2026-03-02T09:00:00Z")
    assert sorted(store.as_of("nate", "allergy").values) == ["peanuts", "shellfish"]


def test_a_tenant_declaration_wins_before_and_after(store):
    store.declare_topic("allergy", "one")
    store.set("ana", "allergy", "peanuts", valid_from="2026-01-01")
    store.set("ana", "allergy", "shellfish", valid_from="2026-02-01")
    assert store.as_of("ana", "allergy").value == "shellfish"
    assert not [e for e in store.events() if e["op"] == "topic" and e["actor"] == BUILTIN_ACTOR]


def test_declaring_one_after_several_values_keeps_the_latest(store):
    store.set("bo", "allergy", "peanuts", valid_from="2026-01-01")
    store.set("bo", "allergy", "shellfish", valid_from="2026-02-01")
    store.declare_topic("allergy", "one")
    assert store.as_of("bo", "allergy").value == "shellfish"
    store.declare_topic("allergy", "many")
    assert sorted(store.as_of("bo", "allergy").values) == ["peanuts", "shellfish"]


def test_rebuild_replays_the_same_answers(store):
    store.set("sam", "allergy", "peanuts", valid_from="2026-01-01")
    store.set("sam", "allergy", "shellfish", valid_from="2026-02-01")
    before = store.as_of("sam", "allergy").values
    store.rebuild()
    assert store.as_of("sam", "allergy").values == before
    assert store.verify()["ok"]


def test_apply_many_declares_once_before_the_first_value(store):
    results = store.apply_many([{"op": "set", "subject": "sam", "topic": "allergy", "value": v} for v in ("a", "b")])
    assert len(results) == 2 and results[1].seq == results[0].seq + 1
    assert sorted(store.as_of("sam", "allergy").values) == ["a", "b"]


def test_user_page_adds_two_allergies_and_refuses_two_values_of_a_one_valued_topic(store):
    page = "- allergy: peanuts\n- allergy: shellfish\n"
    store.apply_user_page("lee", page)
    assert sorted(store.as_of("lee", "allergy").values) == ["peanuts", "shellfish"]
    try:
        store.apply_user_page("lee", page + "- diet: vegan\n- diet: vegetarian\n")
    except ValidationError as e:
        assert "declare-topic diet --cardinality many" in str(e) and "declare_topic('diet', 'many')" in str(e)
    else:
        raise AssertionError("two values of a one-valued topic were accepted")
    assert store.as_of("lee", "diet").value is None


def test_cli_user_apply_refusal_names_the_fix(store, cli_env, tmp_path):
    page = tmp_path / "page.md"
    page.write_text("- diet: vegan\n- diet: vegetarian\n", encoding="utf-8")
    out = subprocess.run([EXE, "user", "apply", "lee", str(page), "-t", store.tenant],
                         capture_output=True, text=True, env=cli_env, timeout=120)
    assert out.returncode == 1 and "graphmem declare-topic diet --cardinality many" in out.stderr


def test_the_builtin_list_is_the_vocabularys():
    vocab = json.loads((Path(__file__).parents[2] / "graphmem/extract/vocabulary.json").read_text())
    assert {n for n, t in vocab["topics"].items() if t.get("cardinality") == "many"} == set(BUILTIN_MANY)


def test_a_changed_declaration_recomputes_slots_stored_before_it(store):
    """Before this fix a declaration recomputed only the slots its own unit of work had loaded:
    declaring ``skills`` one-valued after two values left both open until a rebuild."""
    store.declare_topic("skills", "many")
    store.set("bo", "skills", "a", valid_from="2026-01-01")
    store.set("bo", "skills", "b", valid_from="2026-02-01")
    store.declare_topic("skills", "one")
    assert store.as_of("bo", "skills").value == "b"
    assert store.verify()["projection_ok"]
