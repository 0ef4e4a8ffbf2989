"""docs/graph-model.md's tables, drawn from a real graph rather than written by hand.

A *tour* writes one of everything graphmem stores (the demo's facts and quote, an entity-valued
topic, a message that draws an episode, a summary, embeddings, a working session, a playbook card
promoted to an approved workflow) into one tenant; :func:`describe` then reads back every label,
relationship type and property key that tenant's nodes and relationships carry. The page keeps a
hand-written sentence per label and type (:data:`MEANING`), the tables between its markers are
generated, and ``tests/integration/test_graph_model.py`` fails when the page and the graph
disagree. After a change to what is written:

    NEO4J_URI=… NEO4J_PASSWORD=… python -m tests.graph_model --write
"""

from __future__ import annotations

import re
import sys
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "graph-model.md"
BEGIN, END = "<!-- generated: python -m tests.graph_model --write -->", "<!-- end of generated -->"

# One sentence per label and relationship type: what it is for. A label or type the tour finds
# without a sentence here fails the test, so the page never lists an unexplained name.
MEANING: dict[str, str] = {
    "Entity": "a person, project, place or service inside one tenant; `uid` is its id, `name` what it is called",
    "Topic": "the matter facts are about (`home_address`, `port`), with its cardinality",
    "Fact": "one assertion: subject + topic + value, its valid and record intervals, authority, status",
    "Source": "where an assertion came from: a message, e-mail, document or import, with its own time and text",
    "Event": "one ledger entry (`seq`, `op`, payload, actor, hash chained to the one before)",
    "LedgerHead": "the tenant's ledger head: last `seq`, last record time and hash; writers lock it",
    "Episode": "something a person said they did, and when (who, what, where, a day or a range)",
    "Summary": "a derived, deterministic summary of a subject, with the ledger version it was built from",
    "EmbeddingState": "how far the tenant's embeddings have caught up with the ledger",
    "WorkingSession": "one task's working memory: its state, checkpoints and budget",
    "WorkingItem": "a turn, tool result, instruction or compressed summary in a working session",
    "Outcome": "a recorded task outcome (steps taken, success or failure, errors seen)",
    "ExperienceCard": "L3 advice drafted from outcomes: recommended and avoided steps, confidence",
    "Workflow": "an L4 procedure with an owner; its current version is only ever set by an approval",
    "WorkflowVersion": "one version of a workflow: text, rules, check and replay results, content hash",
    "Approval": "the owner's approval of one workflow version (who, when, the hash approved)",
    "HAS_FACT": "entity → fact it is the subject of, carrying the fact's intervals",
    "VALUE": "fact → the entity that is its value (entity-valued topics), carrying the intervals",
    "HOLDS": "entity → fact: a segment of the slot's timeline (which fact answers over which valid and record interval); what `as_of` reads",
    "RELATED": "entity → entity: the same segments for entity values, the shortcut path queries walk",
    "ABOUT": "fact → its topic",
    "FROM": "fact, episode or quote → the source it came from",
    "QUOTES": "a newer source → the older source it cites; never a supersession",
    "SUPERSEDES": "fact → the fact it replaced, with when and by which event",
    "APPLIED_TO": "ledger event → the fact it wrote",
    "DERIVED_FROM": "a derived copy (summary) → what it was built from",
    "BY": "episode → the person who did it",
    "AT": "episode → the place where it happened",
    "EVIDENCE": "experience card → the outcomes it was drawn from",
    "PROMOTED_FROM": "workflow version → the card it was promoted from",
    "VERSION": "workflow → each of its versions",
    "PREVIOUS": "workflow version → the version before it",
    "APPROVES": "approval → the version it approved",
}


def tour(store: Any) -> None:
    """Write one of everything into ``store``'s (empty) tenant."""
    from graphmem.local.demo import DEMO_EVENTS

    store.apply_many(DEMO_EVENTS)
    store.add_source("org1", kind="document", at="2026-01-02T09:00:00Z", text="Apollo is managed by Lin.", author="hr")
    store.set("apollo", "manager", object="lin", valid_from="2026-01-01", source="org1")
    store.set("lin", "badge", "B-114", source="org1", expires_at="2027-01-01T00:00:00Z")
    store.ingest("I went to a pottery class in Oakland yesterday.", id="ep1", speaker="caroline",
                 at="2026-11-03T10:00:00Z")
    store.ingest("I'm allergic to kiwi.", id="relayed1", speaker="caroline", relayed_by="claude",
                 at="2026-11-03T10:05:00Z")
    store.summary("lin")
    store.embed_pending()
    w = store.working("tour", budget_tokens=400)
    w.add("Book the cheapest flight to Berlin.", id="ask", role="user", author="lin")
    w.checkpoint({"step": 1})
    pb = store.playbooks
    pb.record_outcome("deploy-db", ["edit prod config by hand", "restart service"], "failure", ["E1045 access denied"])
    card = pb.record_outcome("deploy-db", ["run migrations", "restart service"], "success")
    rules = ["must: run migrations", "must: restart service", "never: edit prod config by hand", "output: report"]
    for text in ("Run migrations, restart.", "Run migrations, then restart the service."):
        pb.request_promotion(card["uid"], workflow="deploy-db", owner="alice", text=text, scenario="deploy-db",
                             inputs=["release"], outputs=["report"], tool_permissions=["shell", "db.migrate"],
                             validation_rules=rules)
    version = pb.workflow("deploy-db")["versions"][-1]
    pb.approve("deploy-db", version["uid"], approver="alice", version_hash=version["content_hash"])


NODES = """
MATCH (n) WHERE n.tenant = $tenant
UNWIND labels(n) AS label
UNWIND keys(n) AS key
RETURN label, collect(DISTINCT key) AS keys
"""
RELS = """
MATCH (a)-[r]->(b) WHERE a.tenant = $tenant AND b.tenant = $tenant
RETURN type(r) AS type, collect(DISTINCT labels(a)[0] + ' → ' + labels(b)[0]) AS ends,
       reduce(ks = [], k IN collect(keys(r)) | ks + k) AS keys
"""


def describe(driver: Any, tenant: str, database: str | None = None) -> dict[str, dict[str, list[str]]]:
    """``{"nodes": {label: [keys]}, "rels": {type: [ends + keys]}}`` for one tenant, sorted."""
    nodes: dict[str, list[str]] = {}
    rels: dict[str, list[str]] = {}
    with driver.session(database=database) as s:
        for row in s.run(NODES, tenant=tenant):
            nodes[row["label"]] = sorted(row["keys"])
        for row in s.run(RELS, tenant=tenant):
            rels[row["type"]] = sorted(row["ends"]) + ["|"] + sorted(set(row["keys"]))
    return {"nodes": dict(sorted(nodes.items())), "rels": dict(sorted(rels.items()))}


def render(model: dict[str, dict[str, list[str]]]) -> str:
    """The generated part of the page: a table of labels and one of relationship types."""
    lines = [BEGIN, "", f"### Node labels ({len(model['nodes'])})", "",
             "| label | what it is | properties |", "| --- | --- | --- |"]
    for label, keys in model["nodes"].items():
        lines.append(f"| `:{label}` | {MEANING.get(label, '**undescribed**')} | {', '.join(f'`{k}`' for k in keys)} |")
    lines += ["", f"### Relationship types ({len(model['rels'])})", "",
              "| type | what it links | between | properties |", "| --- | --- | --- | --- |"]
    for rtype, row in model["rels"].items():
        bar = row.index("|")
        ends, keys = row[:bar], row[bar + 1:]
        lines.append(f"| `:{rtype}` | {MEANING.get(rtype, '**undescribed**')} | {'; '.join(ends)} | "
                     f"{', '.join(f'`{k}`' for k in keys) or '—'} |")
    lines += ["", END]
    return "\n".join(lines)


def generated_part(page: str) -> str:
    """The text between the markers of ``page`` (markers included)."""
    m = re.search(re.escape(BEGIN) + ".*?" + re.escape(END), page, flags=re.S)
    if m is None:
        raise ValueError(f"{PAGE} has no generated section ({BEGIN!r} … {END!r})")
    return m.group(0)


def draw(settings: Any, driver: Any) -> str:
    """Run the tour on a fresh tenant, describe it, drop it; the rendered tables."""
    from graphmem import GraphMem
    from graphmem.recall.embed import HashingEmbedder

    store = GraphMem(settings, tenant=f"graph-model-{uuid.uuid4().hex[:8]}", driver=driver,
                     embedder=HashingEmbedder())
    try:
        tour(store)
        return render(describe(driver, store.tenant, settings.database))
    finally:
        store.drop_tenant()


def main(argv: list[str]) -> int:
    import neo4j

    from graphmem.local.testing import find_neo4j

    target = find_neo4j()
    settings = target.settings
    driver = neo4j.GraphDatabase.driver(settings.uri, auth=settings.auth, notifications_min_severity="OFF")
    try:
        tables = draw(settings, driver)
    finally:
        driver.close()
        target.cleanup()
    if "--write" in argv:
        page = PAGE.read_text(encoding="utf-8")
        PAGE.write_text(page.replace(generated_part(page), tables), encoding="utf-8")
        print(f"wrote {PAGE}")
    else:
        print(tables)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
