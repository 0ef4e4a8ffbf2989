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
from .unit_of_work import UnitOfWork
from .values import Expander, row_to_assertion, to_datetime

__all__ = ["Expander", "UnitOfWork", "row_to_assertion", "to_datetime"]
