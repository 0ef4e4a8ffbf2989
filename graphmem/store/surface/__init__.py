"""The public operations of the store, defined once for the sync and the async client.

Each function takes the client (``mem``, a :class:`~graphmem.store.api.StoreApi`) and returns a plan
(:mod:`graphmem.store.ops`): no I/O here. They live by family — :mod:`~graphmem.store.surface.writes`
(the schema, events, the write helpers, replay), :mod:`~graphmem.store.surface.governance` (erase,
verify, audit, stats), :mod:`~graphmem.store.surface.recall` (context, summaries, the user page), :mod:`~graphmem.store.surface.memories` (search, facts,
candidates) and
:mod:`~graphmem.store.surface.reads` (as_of, history, why, path, episodes) — and this package's
``__all__`` lists them in the order of the clients' methods. :mod:`graphmem.store.facegen` reads
these modules and writes ``graphmem/store/faces.py``, whose typed methods run the plan —
``GraphMem.as_of(...) -> Answer``, ``await AsyncGraphMem.as_of(...) -> Answer``. After changing a
signature or docstring here, run ``python -m graphmem.store.facegen`` (tests/unit/test_faces.py
fails while the faces drift).

Docstring examples are written for the sync client; on the async one, ``await`` the call.
"""

from __future__ import annotations

from .common import When
from .governance import (erase, request_erase, erase_request, confirm_erase, cancel_erase, verify, audit,
                         working_sessions, stats)
from .reads import (round_trip, as_of, history, why, path, episodes, messages, assertions, events_page)
from .recall import (context, warm_plans, summary, user_page, apply_user_page, embed_pending)
from .memories import (search, facts, candidates)
from .writes import (install_schema, ensure_schema, apply, apply_many, apply_bulk, ingest_bulk, add, alias, add_source,
                     declare_topic, set, revoke, retract, confirm, reject, quote, ingest, rebuild, drop_tenant,
                     sweep)

__all__ = ["When", "install_schema", "ensure_schema", "apply", "apply_many", "apply_bulk", "ingest_bulk", "add", "alias",
           "add_source", "declare_topic", "set", "revoke", "retract", "confirm", "reject", "quote", "ingest",
           "rebuild", "drop_tenant", "sweep", "erase", "request_erase", "erase_request", "confirm_erase",
           "cancel_erase", "verify", "audit", "working_sessions", "stats", "context", "warm_plans", "summary", "user_page",
           "apply_user_page", "embed_pending", "search", "facts", "candidates", "round_trip", "as_of", "history",
           "why", "path", "episodes", "messages",
           "assertions", "events_page"]
