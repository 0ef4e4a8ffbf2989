"""A drafted L3 card is no advice until a person activates it (issue #45 item 3): the steps a
model's task outcomes drafted do not reach another session's context on their own."""

from __future__ import annotations

import json


def test_a_draft_card_is_not_advice_until_activated(store):
    pb = store.playbooks
    assert pb.record_outcome("deploy-db", ["edit prod config by hand"], "failure", area="deploy-db") is None
    card = pb.record_outcome("deploy-db", ["run the migration tool"], "success", area="deploy-db")
    assert card is not None and card["status"] == "draft"
    assert pb.applicable("deploy-db")["cards"] == []
    ctx = store.context("deploy-db: run the migration", area="deploy-db", session="another")
    assert ctx.cards == [] and "run the migration tool" not in ctx.render()
    pb.activate_card(card["uid"], actor="alice")
    assert [c["uid"] for c in pb.applicable("deploy-db")["cards"]] == [card["uid"]]
    ctx = store.context("deploy-db: run the migration", area="deploy-db", session="another")
    assert [c.uid for c in ctx.cards] == [card["uid"]]


def _scan(driver, tenant, needles, database):
    records, _, _ = driver.execute_query(
        "MATCH (n) WHERE n.tenant = $t RETURN labels(n) AS labels, properties(n) AS props", t=tenant,
        database_=database)
    return [f"{r['labels']}: {needle}" for r in records for needle in needles
            if needle in json.dumps(r["props"], default=str, ensure_ascii=False)]


def test_erase_reaches_cards_outcomes_and_their_ledger_events(store, driver, neo4j_target):
    who, secret = "zz-rolesubject-41", "Zq-Hidden-Lane-8812"
    pb = store.playbooks
    # the subject's own task: a failure then a success drafts a card naming them; it is activated
    pb.record_outcome(f"ship {who}'s parcel", [f"send to {secret}"], "failure", area="parcels")
    card = pb.record_outcome(f"ship {who}'s parcel", [f"send to {who} at the hotel"], "success", area="parcels")
    pb.activate_card(card["uid"], actor="alice")
    # a working session in which the subject spoke: its outcome and card go too
    wm = store.working("w1")
    wm.add(f"Deliver it to {secret}.", role="user", author=who, id="u1")
    pb.record_outcome("deliver", ["check the address"], "failure", area="delivery")
    wm.close("success", task="deliver", steps=["use the courier"], area="delivery")
    # someone else's card stays
    pb.record_outcome("deploy", ["edit by hand"], "failure", area="deploy")
    other = pb.record_outcome("deploy", ["run migrations"], "success", area="deploy")
    cards_before = {c["uid"] for c in pb.cards()}
    assert card["uid"] in cards_before and other["uid"] in cards_before
    db = neo4j_target.settings.database
    assert _scan(driver, store.tenant, [who, secret], db)

    summary = store.erase(subject=who, actor="dpo", reason="GDPR")
    assert summary["cards"] >= 2 and summary["outcomes"] >= 3
    assert _scan(driver, store.tenant, [who, secret], db) == []  # cards, outcomes, ledger events: gone
    left = {c["uid"] for c in pb.cards()}
    assert card["uid"] not in left and other["uid"] in left
    assert pb.applicable("parcels")["cards"] == [] and pb.applicable("delivery")["cards"] == []
    assert [e for e in store.events() if e["op"] == "playbook" and card["uid"] in (e["payload"] or "")] == []
    store.rebuild()
    assert _scan(driver, store.tenant, [who, secret], db) == []
