"""What a rebuild writes: the difference between the tenant's projection and the replay it made
under its shadow name (graphmem.store.shadow), in the rebuild's transaction — nothing else.

A node that came out of the replay as it is in the projection is never deleted or rewritten, so a
reader that runs while the commit is applied (Neo4j applies it record by record; reads take no
locks) finds every such node, relationship and property where it was. An erase then touches only
what the erased events made and what depends on them; a repairing rebuild only what it repairs.

Nodes are paired by a key made of their labels and identifying properties (``uid``, ``name``,
``session``, ``seq``: all given by the ledger, so a replay reproduces them); relationships by
their type, the keys of their two ends and their properties (a node outside the projection, such
as a ledger event, is its own key: it is the same node on both sides). Properties and
relationship properties are compared as ``admin/projection_lines`` gives them (times as text).

The writes, in order: relationships of the projection the replay lacks, then its nodes the replay
lacks (with what they hold); the replay's new nodes moved under the tenant's name (with their
relationships); each property that differs on a paired node; a paired relationship's properties
in place; the replay's other new relationships made between the tenant's nodes; then the shadow,
whatever remains of it, deleted (graphmem.store.shadow.drop_shadow).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ..core.scope import shadow_tenant
from .plans import run_query
from .queries import Steps

__all__ = ["Diff", "Side", "apply_diff", "diff", "read_side"]

Key = tuple[Any, ...]
_IDENTITY = ("uid", "name", "session", "seq")


@dataclass
class Side:
    """One side of the comparison: nodes (element id → labels and properties, ``tenant`` left
    out, as it is what tells the sides apart) and relationships (element id → type, properties
    as one text, start and end element ids)."""

    nodes: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = field(default_factory=dict)
    rels: dict[str, tuple[str, str, str, str]] = field(default_factory=dict)

    def key(self, node: str) -> Key:
        """A node's key: its labels and identifying properties; a node not on this side (a ledger
        event) is keyed by its element id, the same on both sides."""
        if node not in self.nodes:
            return ("outside", node)
        labels, props = self.nodes[node]
        return (labels, *(props.get(k) for k in _IDENTITY))


def _pairs(pairs: list[list[Any]]) -> dict[str, Any]:
    return {k: v for k, v in pairs if v is not None}


def read_side(tenant: str) -> Steps[Side]:
    """Read one side (``admin/projection_lines``) in this transaction."""
    side = Side()
    for r in (yield from run_query("admin/projection_lines", tenant)):
        props = _pairs(r["props"])
        props.pop("tenant", None)
        side.nodes[r["id"]] = (tuple(sorted(r["labels"])), props)
        for rid, kind, rprops, start, end in r["rels"]:
            side.rels[rid] = (kind, json.dumps(sorted(_pairs(rprops).items()), default=str), start, end)
    return side


@dataclass
class Diff:
    """The writes that turn the projection into the replay (element ids; see the module's docstring)."""

    delete_rels: list[str] = field(default_factory=list)
    delete_nodes: list[str] = field(default_factory=list)
    move_nodes: list[str] = field(default_factory=list)
    set_props: list[dict[str, Any]] = field(default_factory=list)  # {live, shadow, keys}
    set_rels: list[dict[str, str]] = field(default_factory=list)  # {live, shadow}
    create_rels: list[dict[str, str]] = field(default_factory=list)  # {start, end, shadow}

    def empty(self) -> bool:
        return not (self.delete_rels or self.delete_nodes or self.move_nodes or self.set_props or self.set_rels
                    or self.create_rels)

    def counts(self) -> dict[str, int]:
        """How many of each write: what a rebuild reports it changed."""
        return {k: len(v) for k, v in vars(self).items()}


def _group(side: Side) -> dict[Key, list[str]]:
    by_key: dict[Key, list[str]] = defaultdict(list)
    for node in side.nodes:
        by_key[side.key(node)].append(node)
    return by_key


def diff(live: Side, shadow: Side) -> Diff:
    """What to write so that the projection (``live``) becomes the replay (``shadow``)."""
    out = Diff()
    live_keys, shadow_keys = _group(live), _group(shadow)
    twin: dict[str, str] = {}  # shadow node -> the live node it stands for
    for key in live_keys.keys() | shadow_keys.keys():
        mine, theirs = live_keys.get(key, []), shadow_keys.get(key, [])
        if len(mine) == 1 and len(theirs) == 1:  # a key held twice on a side is replaced, not paired
            twin[theirs[0]] = mine[0]
            a, b = live.nodes[mine[0]][1], shadow.nodes[theirs[0]][1]
            keys = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
            if keys:
                out.set_props.append({"live": mine[0], "shadow": theirs[0], "keys": keys})
        else:
            out.delete_nodes.extend(mine)
            out.move_nodes.extend(theirs)
    gone = set(out.delete_nodes)
    moved = set(out.move_nodes)

    def rkey(side: Side, rel: tuple[str, str, str, str]) -> Key:
        kind, props, start, end = rel
        return kind, side.key(start), side.key(end), props

    live_rels: dict[Key, list[str]] = defaultdict(list)
    for rid, rel in live.rels.items():
        if rel[2] not in gone and rel[3] not in gone:  # deleted with their node
            live_rels[rkey(live, rel)].append(rid)
    shadow_rels: dict[Key, list[str]] = defaultdict(list)
    for rid, rel in shadow.rels.items():
        shadow_rels[rkey(shadow, rel)].append(rid)
    extra: dict[Key, list[str]] = defaultdict(list)  # (type, start, end) -> live relationships to go
    needed: dict[Key, list[str]] = defaultdict(list)  # (type, start, end) -> shadow relationships to make
    for key in live_rels.keys() | shadow_rels.keys():
        mine, theirs = live_rels.get(key, []), shadow_rels.get(key, [])
        n = min(len(mine), len(theirs))
        extra[key[:3]].extend(mine[n:])
        for rid in theirs[n:]:
            _, _, start, end = shadow.rels[rid]
            if (start in moved or start not in shadow.nodes) and (end in moved or end not in shadow.nodes):
                continue  # both ends are (or become) the tenant's: it moves with them
            needed[key[:3]].append(rid)
    for key in extra.keys() | needed.keys():
        mine, theirs = extra.get(key, []), needed.get(key, [])
        if len(mine) == 1 and len(theirs) == 1:  # the same relationship, its properties changed
            out.set_rels.append({"live": mine[0], "shadow": theirs[0]})
            continue
        out.delete_rels.extend(mine)
        for rid in theirs:
            _, _, start, end = shadow.rels[rid]
            out.create_rels.append({"start": twin.get(start, start), "end": twin.get(end, end), "shadow": rid})
    return out


def apply_diff(tenant: str, d: Diff) -> Steps[None]:
    """Write ``d`` in this transaction (the order matters: see the module's docstring)."""
    shadow = shadow_tenant(tenant)
    if d.delete_rels:
        yield from run_query("admin/diff_delete_rels", tenant, ids=d.delete_rels)
    if d.delete_nodes:
        yield from run_query("admin/diff_delete_nodes", tenant, ids=d.delete_nodes)
    if d.move_nodes:
        yield from run_query("admin/diff_move_nodes", tenant, ids=d.move_nodes, shadow=shadow)
    if d.set_props:
        yield from run_query("admin/diff_set_props", tenant, rows=d.set_props, shadow=shadow)
    if d.set_rels:
        yield from run_query("admin/diff_set_rels", tenant, rows=d.set_rels)
    if d.create_rels:
        yield from run_query("admin/diff_create_rels", tenant, rows=d.create_rels)
