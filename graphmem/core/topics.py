"""Built-in topics whose cardinality a tenant gets without declaring it.

docs/format.md lists the built-in topics the extractor draws; ``allergy`` among them is
many-valued ("peanuts and shellfish" are two allergies, the second does not replace the first).
A tenant that never declared ``allergy`` would otherwise take it as one-valued (every undeclared
topic is), so the store declares it for the tenant the first time a value of it is written: the
unit of work appends a ``topic`` event (actor :data:`BUILTIN_ACTOR`) before that ``set``.

Why a ledger event and not a default read at query time: replay must give the same projection
whatever later versions of graphmem list here (docs/semantics.md, "Built-in cardinality"). A
tenant's own declaration, before or after, wins like any later declaration.

:data:`BUILTIN_MANY` must equal the many-valued topics of ``graphmem/extract/vocabulary.json``
(a unit test checks): the store may not import the extractor, so the list lives here, in core.
"""

from __future__ import annotations

__all__ = ["BUILTIN_ACTOR", "BUILTIN_MANY", "BUILTIN_REASON", "builtin_declaration"]

BUILTIN_MANY: frozenset[str] = frozenset({"allergy"})
BUILTIN_ACTOR = "graphmem"
BUILTIN_REASON = "built-in many-valued topic (docs/format.md), declared on its first value"


def builtin_declaration(topic: str) -> dict[str, str]:
    """The ``topic`` event the store records for a built-in many-valued topic (as a ledger entry of
    its own, or among a message's drawn events: graphmem.store.projection)."""
    return {"op": "topic", "name": topic, "cardinality": "many", "actor": BUILTIN_ACTOR, "reason": BUILTIN_REASON}
