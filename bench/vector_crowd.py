"""The vector legs' tenant scope beside other tenants' nearer vectors (docs/governance.md,
"Tenants"): Neo4j 5 cannot filter inside a vector search, so the shared ``source_embedding`` index
is asked for ``k_vector`` hits (at most ``message_limit × vector_oversample``, 800 by default) and
they are filtered to the tenant afterwards; when too few are the tenant's, the leg asks again
deeper and then scans the tenant's own vectors (graphmem.recall.vectors.deep_k, scan_first). A
victim tenant holds one message; a crowd of other tenants holds N messages nearer the question
than it. Prints, for each N, whether the victim's message still comes back by the vector leg and
by the full-text leg (exactly scoped by ``tenant_key``). Before the scan, the vector leg lost it
beside 820 or more. A developer's tool, not part of the package; it writes and drops tenants of
its own (``tenantkey-vec-…``).

    NEO4J_URI=… NEO4J_PASSWORD=… .venv/bin/python bench/vector_crowd.py 100 780 820 900
"""

from __future__ import annotations

import sys
import uuid

from graphmem import GraphMem

QUESTION = "what is the locker code?"
AT = "2026-03-01T10:00:00Z"


def crowd_run(base: GraphMem, crowd: int) -> tuple[bool, bool]:
    """(found by the vector leg, found by the full-text leg) for the victim beside ``crowd`` nearer vectors."""
    run = uuid.uuid4().hex[:6]
    victim = base.for_tenant(f"tenantkey-vec-{run}-victim")
    others = [base.for_tenant(f"tenantkey-vec-{run}-{i}") for i in range((crowd + 199) // 200)]
    try:
        victim.apply_bulk([{"op": "source", "id": "v-m0", "kind": "message", "at": AT,
                            "text": "the locker code reminder", "author": "sam"}])
        left = crowd
        for i, mem in enumerate(others):
            n, left = min(200, left), left - min(200, left)
            mem.apply_bulk([{"op": "source", "id": f"c{i}-m{j}", "kind": "message", "at": AT, "text": QUESTION,
                             "author": "sam"} for j in range(n)])
            mem.search(QUESTION, limit=1)  # a search embeds the tenant's messages first
        legs = [leg for m in victim.search(QUESTION, limit=20).memories if m.kind == "message" for leg in m.legs]
        return any(g.startswith("vector:") for g in legs), any(g.startswith("text:") for g in legs)
    finally:
        for mem in [victim, *others]:
            mem.drop_tenant()


def main(argv: list[str]) -> None:
    with GraphMem(tenant="tenantkey-vec") as base:
        for crowd in map(int, argv):
            by_vector, by_text = crowd_run(base, crowd)
            print(f"{crowd} nearer vectors of other tenants: the victim's own message by the vector leg "
                  f"{by_vector}, by the full-text leg {by_text}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["100", "780", "820", "900"])
