"""A drafted L3 card is no advice until a person activates it (issue #45 item 3): the steps a
model's task outcomes drafted do not reach another session's context on their own."""

from __future__ import annotations


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
