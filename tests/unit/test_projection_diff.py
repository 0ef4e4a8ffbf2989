"""The rebuild's diff (graphmem.store.projection_diff) on hand-made sides: what the replay gives
back as it was is never written; what differs is written as little as it can be."""

from __future__ import annotations

from graphmem.store.projection_diff import Side, diff


def _side(nodes: dict[str, tuple[str, dict[str, str]]], rels: dict[str, tuple[str, str, str, str]]) -> Side:
    return Side(nodes={i: ((label,), props) for i, (label, props) in nodes.items()}, rels=dict(rels))


LIVE = _side({"e1": ("Entity", {"uid": "svc", "name": "svc"}),
              "f1": ("Fact", {"uid": "f1", "seq": "1", "value": "80"}),
              "f2": ("Fact", {"uid": "f2", "seq": "2", "value": "81"}),
              "e2": ("Entity", {"uid": "other", "name": "other"})},
             {"h1": ("HOLDS", '[["seg", "s1"]]', "e1", "f1"),
              "h2": ("HOLDS", '[["seg", "s2"]]', "e1", "f2"),
              "a1": ("APPLIED_TO", "[]", "ev1", "f1")})


def test_an_identical_replay_is_an_empty_diff():
    shadow = _side({"x" + k: v for k, v in ((k, (n[0][0], n[1])) for k, n in LIVE.nodes.items())},
                   {"x" + k: (t, p, s if s.startswith("ev") else "x" + s, "x" + e) for k, (t, p, s, e) in LIVE.rels.items()})
    assert diff(LIVE, shadow).empty()


def test_only_what_differs_is_written():
    shadow = _side({"s1": ("Entity", {"uid": "svc", "name": "svc"}),
                    "s2": ("Fact", {"uid": "f1", "seq": "1", "value": "80", "confirmed_at": "t"}),  # a new property
                    "s4": ("Entity", {"uid": "other", "name": "other"}),
                    "s5": ("Fact", {"uid": "f3", "seq": "3", "value": "82"})},  # f2 gone, f3 new
                   {"r1": ("HOLDS", '[["seg", "s1"], ["superseded_at", "t"]]', "s1", "s2"),  # closed in place
                    "r3": ("HOLDS", '[["seg", "s3"]]', "s1", "s5"),  # to a moved node from a paired one
                    "r4": ("APPLIED_TO", "[]", "ev1", "s2")})
    d = diff(LIVE, shadow)
    assert d.delete_nodes == ["f2"] and d.move_nodes == ["s5"]
    assert d.set_props == [{"live": "f1", "shadow": "s2", "keys": ["confirmed_at"]}]
    assert d.set_rels == [{"live": "h1", "shadow": "r1"}]
    assert d.create_rels == [{"start": "e1", "end": "s5", "shadow": "r3"}]
    assert d.delete_rels == []  # h2 goes with f2; a1 is unchanged


def test_a_relationship_between_new_nodes_moves_with_them():
    shadow = _side({**{"x" + k: (n[0][0], n[1]) for k, n in LIVE.nodes.items()},
                    "n1": ("Entity", {"uid": "new", "name": "new"}), "n2": ("Fact", {"uid": "f9", "seq": "9"})},
                   {**{"x" + k: (t, p, s if s.startswith("ev") else "x" + s, "x" + e)
                       for k, (t, p, s, e) in LIVE.rels.items()},
                    "r9": ("HOLDS", "[]", "n1", "n2"), "r8": ("APPLIED_TO", "[]", "ev9", "n2")})
    d = diff(LIVE, shadow)
    assert sorted(d.move_nodes) == ["n1", "n2"]
    assert d.create_rels == [] and d.delete_rels == [] and d.set_props == [] and not d.delete_nodes


def test_a_key_held_twice_is_replaced_not_paired():
    live = _side({"a": ("Entity", {"uid": "svc"}), "b": ("Entity", {"uid": "svc"})}, {})
    shadow = _side({"s": ("Entity", {"uid": "svc"})}, {})
    d = diff(live, shadow)
    assert sorted(d.delete_nodes) == ["a", "b"] and d.move_nodes == ["s"]


def test_duplicate_relationships_are_counted():
    live = _side({"e": ("Entity", {"uid": "svc"}), "f": ("Fact", {"uid": "f1"})},
                 {"r1": ("VALUE", "[]", "f", "e"), "r2": ("VALUE", "[]", "f", "e")})
    shadow = _side({"se": ("Entity", {"uid": "svc"}), "sf": ("Fact", {"uid": "f1"})},
                   {"q1": ("VALUE", "[]", "sf", "se")})
    d = diff(live, shadow)
    assert len(d.delete_rels) == 1 and d.create_rels == [] and d.set_rels == []


def test_the_tenant_gate_lets_through_only_the_bound_tenants_own_shadow():
    """A rebuild replays under ``shadow_tenant(bound)``; the gate that refuses any other tenant's
    ``$tenant`` lets that one through, and no other tenant's shadow (graphmem.core.scope)."""
    import pytest

    from graphmem.core.errors import TenantError, ValidationError
    from graphmem.core.scope import check_call, check_tenant, shadow_tenant
    from graphmem.store.queries import Call

    check_call("acme", Call("admin/projection_lines", {"tenant": shadow_tenant("acme")}))
    for other in ("acme2", shadow_tenant("acme2"), shadow_tenant(shadow_tenant("acme"))):
        with pytest.raises(TenantError):
            check_call("acme", Call("admin/projection_lines", {"tenant": other}))
    with pytest.raises(ValidationError):  # no client can be bound to a shadow name
        check_tenant(shadow_tenant("acme"))
