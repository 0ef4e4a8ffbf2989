"""An as-of read before and after a change to ``cypher/as_of.cypher``: the file as an earlier
commit had it (sent as ``queries.Query`` sends it) against the working tree's, both through the
bare driver the way graphmem sends reads (an auto-commit transaction in a READ session, times as
``instant`` maps), beside ``mem.as_of``, ``RETURN 1`` and ``mem.round_trip()`` (``graphmem
bench``'s floor). Interleaved in a new random order every round on one tenant that the working
tree's code writes (so it carries whatever the new query reads), p50 of each. A developer's tool
beside ``bench/asof_parts.py`` (docs/scaling.md, "What a read costs"), not part of the package.

    NEO4J_URI=… .venv/bin/python bench/asof_ab.py ~/TILP/data 61039 4000 COMMIT
    NEO4J_URI=… .venv/bin/python bench/asof_ab.py ~/TILP/data bench-a847f2-r0 4000 COMMIT

loads N facts into a fresh tenant, asks Q random as-of questions five ways, drops the tenant; or,
given a tenant a ``graphmem bench --keep`` run left (one replica: every fact of DIR), asks it.
"""

from __future__ import annotations

import random
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from graphmem import GraphMem
from graphmem.bench.kg_workload import KGData, Questions, data_files
from graphmem.store import queries
from graphmem.store.projection.values import instant
from graphmem.store.settings import Settings

# bench/ is on the path when this file runs
from asof_parts import bare_reader, fresh_tenant, interleave, report
from tenant_scans import text_at

WARM = 300  # rounds that warm the plans up and are not counted


def main(folder: str, size_or_tenant: str, asked: int, commit: str) -> None:
    data = KGData(data_files([Path(folder)]))
    kept = not size_or_tenant.isdigit()
    facts = data.facts if kept else data.facts[:int(size_or_tenant)]
    mem = GraphMem(Settings.from_env(), tenant=size_or_tenant) if kept else fresh_tenant(data, facts, "asof-ab")
    old, new = text_at(commit, "as_of"), queries.get("as_of").text
    try:
        data.restrict(facts)
        ask = Questions(data, facts, random.Random(11))
        bare, now = bare_reader(mem), instant(datetime.now(timezone.utc))

        def asked_of(s: str, r: str, t: datetime) -> dict[str, Any]:  # times sent as graphmem sends them
            return {"tenant": mem.tenant, "subject": s, "topic": r, "env": "", "valid_at": instant(t),
                    "known_at": now}

        ways: dict[str, Callable[[str, str, datetime], Any]] = {
            f"as_of.cypher at {commit}": lambda s, r, t: bare(old, asked_of(s, r, t)),
            "as_of.cypher now": lambda s, r, t: bare(new, asked_of(s, r, t)),
            "mem.as_of now": lambda s, r, t: mem.as_of(s, r, valid_at=t),
            "RETURN 1, bare driver": lambda s, r, t: bare("RETURN 1", {}),
            "mem.round_trip()": lambda s, r, t: mem.round_trip(),
        }
        report(interleave(ways, ask, asked, WARM), "mem.round_trip()", "mem.round_trip()")
    finally:
        if not kept:
            mem.drop_tenant(batch=5_000)
        mem.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4])
