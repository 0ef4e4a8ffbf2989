"""The write path: ledger events and their effect on the graph projection, in one transaction.
One module per concept (issue #16 item 3 split the former 762-line module):

- :mod:`.values` — rows and wire values ↔ assertions and UTC datetimes;
- :mod:`.segments` — the pure segment diff of a slot's timeline (the temporal heart, unit-tested);
- :mod:`.slots` — the slot cache: what the unit has read, loaded in batches;
- :mod:`.buffer` — the write buffer and its flush;
- :mod:`.timelines` — recomputations deferred while record time stands still;
- :mod:`.context`, :mod:`.facts`, :mod:`.handlers` — op → handler table and the one fact builder;
- :mod:`.unit_of_work` — the orchestrating :class:`UnitOfWork`.

After any change to the assertions of one (subject, topic, env) — a *slot* — the slot's timeline
is recomputed with :mod:`graphmem.core.temporal` as known at that event's record time and the
difference becomes ``HOLDS`` / ``RELATED`` segments: ended segments get ``superseded_at``, new
ones start at this record time. Stored segments are never rewritten otherwise, so ``known_at``
reads see the past exactly; a segment that is born and ended at the same record time was never
visible and is not kept.
"""

# recall, governance, the working layer and the store's operations import these from here
from typing import TYPE_CHECKING, Any

from .values import Expander, row_to_assertion, to_datetime

if TYPE_CHECKING:
    from .unit_of_work import UnitOfWork

__all__ = ["Expander", "UnitOfWork", "row_to_assertion", "to_datetime"]


def __getattr__(name: str) -> Any:
    # The unit of work (and the events' models, the temporal rules' writers) loads on first use:
    # a read — `graphmem as-of` from a shell — needs only the values above.
    if name == "UnitOfWork":
        from .unit_of_work import UnitOfWork
        return UnitOfWork
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
