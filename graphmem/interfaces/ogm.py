"""neomodel classes for graphmem's graph: for developers who like objects over Cypher.

They describe the same labels, properties and constraints as ``cypher/schema.cypher`` (a test
keeps the two in step). They are a *read* view: every write goes through the ledger
(:class:`graphmem.GraphMem`), never through ``save()``, or the projection would drift from its
ledger. neomodel is imported here only, so importing :mod:`graphmem` stays light.

The classes are made from a table, one entry a label: what it is, its properties, its
relationships. A property is ``name`` (a string) or ``name:type`` — ``int``, ``float``, ``bool``,
``time`` (a datetime), ``[str]`` or ``[float]`` (an array) — with ``!`` after the name when it is
required and ``(a|b)`` after it for its only values; a relationship is ``name=(label, TYPE)`` or
``name=(label, TYPE, edge class)``, outgoing.

Install the schema with one call, on your own driver::

    from graphmem.interfaces.ogm import install_schema
    install_schema(driver)            # as GraphMem.install_schema: the upgrade, cypher/schema.cypher, the marker
"""

from __future__ import annotations

import re
from typing import Any

from neomodel import (
    ArrayProperty,
    BooleanProperty,
    DateTimeProperty,
    FloatProperty,
    IntegerProperty,
    RelationshipTo,
    StringProperty,
    StructuredNode,
    StructuredRel,
)

__all__ = ["Approval", "EmbeddingState", "Entity", "Episode", "Event", "ExperienceCard", "Fact", "GraphmemSchema",
           "LedgerHead", "Outcome", "Source", "Summary", "Topic", "Workflow", "WorkflowVersion", "install_schema"]

_TYPES: dict[str, Any] = {"str": StringProperty, "int": IntegerProperty, "float": FloatProperty,
                          "bool": BooleanProperty, "time": DateTimeProperty}
_SPEC = re.compile(r"(?P<name>\w+)(?P<required>!?)(?::(?P<array>\[)?(?P<type>\w+)\]?)?(?:\((?P<choices>[\w|]+)\))?")


def _property(spec: str) -> tuple[str, Any]:
    """``name!:type(a|b)`` (see the module's docstring) to the name and its neomodel property."""
    m = _SPEC.fullmatch(spec)
    if m is None or m["type"] not in (None, *_TYPES):
        raise ValueError(f"not a property: {spec!r}")
    kind = _TYPES[m["type"] or "str"]
    if m["array"]:
        return m["name"], ArrayProperty(kind())
    options: dict[str, Any] = {"required": True} if m["required"] else {}
    if m["choices"]:
        options["choices"] = {c: c for c in m["choices"].split("|")}
    return m["name"], kind(**options)


def _attrs(doc: str, props: str, rels: dict[str, tuple[Any, ...]]) -> dict[str, Any]:
    attrs: dict[str, Any] = {"__module__": __name__, "__doc__": doc}
    attrs.update(_property(spec) for spec in props.split())
    for name, (label, kind, *model) in rels.items():
        attrs[name] = RelationshipTo(label, kind, model=model[0] if model else None)
    return attrs


def _node(name: str, doc: str, props: str, **rels: tuple[Any, ...]) -> Any:
    """A node class: its label (``name``), what it is, its properties and outgoing relationships."""
    return type(name, (StructuredNode,), _attrs(doc, props, rels))


def _edge(name: str, doc: str, props: str) -> Any:
    """A relationship class (the edge model of a relationship) and its properties."""
    return type(name, (StructuredRel,), _attrs(doc, props, {}))


Interval = _edge("Interval", "Edges that carry valid time and record time (HOLDS, RELATED, HAS_FACT, VALUE).",
                 "seg topic env valid_from:time valid_to:time recorded_at:time superseded_at:time retracted_at:time "
                 "conflict:bool fact expires_at:time")

Stamp = _edge("Stamp", "Edges stamped with when and by which event they were recorded (SUPERSEDES, QUOTES).",
              "recorded_at:time event_seq:int")

Entity = _node("Entity", "A person, project, place or service, inside one tenant.",
               "tenant! tenant_key uid! name kind",
               holds=("Fact", "HOLDS", Interval), has_fact=("Fact", "HAS_FACT", Interval),
               related=("Entity", "RELATED", Interval))

Topic = _node("Topic", "The matter a fact is about (home_address, deploy.port…), with its cardinality.",
              "tenant! name! cardinality(one|many) ttl_seconds:int expiring:bool")

Source = _node("Source", "Where a fact came from: a message, email, tool result, document or import.",
               "tenant! tenant_key uid! kind at:time text author recorded_at:time expires_at:time seq:int session about "
               "embedding:[float]",
               quotes=("Source", "QUOTES", Stamp))

Fact = _node("Fact", "One assertion: a set or a revoke, with its intervals, authority, status and evidence.",
             "tenant! tenant_key uid! seq:int kind(set|revoke) subject topic env value is_entity:bool valid_from:time "
             "valid_to:time recorded_at:time authority session status confidence:float ref author said_at:time "
             "quoted:bool source evidence confirmed_at:time rejected_at:time retracted_at:time expires_at:time "
             "expired_at:time embedding:[float]",
             about=("Topic", "ABOUT"), from_source=("Source", "FROM"), value_entity=("Entity", "VALUE", Interval),
             supersedes=("Fact", "SUPERSEDES", Stamp))

Episode = _node("Episode", "Something a person did, where, and when (``[start, end)``), reported by its source.",
                "tenant! uid! seq:int who what where start:time end:time evidence source said_at:time "
                "recorded_at:time planned:bool",
                from_source=("Source", "FROM"), by=("Entity", "BY"), at_place=("Entity", "AT"))

Event = _node("Event", "One ledger entry: sequence number, op, JSON payload, actor, reason, record time.",
              "tenant! seq!:int op payload actor reason recorded_at:time event_id facts:[str]",
              applied_to=("Fact", "APPLIED_TO"))

LedgerHead = _node("LedgerHead",
                   "The tenant's ledger head: last sequence number and record time (locked by each write).",
                   "tenant! seq:int last_recorded_at:time locked_by summarised_at:time")

Outcome = _node("Outcome", "One recorded task outcome: the evidence L3 cards are drawn from.",
                "tenant! uid! task area steps:[str] outcome(success|failure) errors:[str] at:time actor")

ExperienceCard = _node("ExperienceCard",
                       "L3: an automatically drawn lesson. Advice only: rejectable, roll-backable, never binding.",
                       "tenant! uid! signature problem_signature area preconditions:[str] recommended_steps:[str] "
                       "avoid_steps:[str] validation:[str] confidence:float status version:int created_at:time "
                       "conflicts_with:[str] status_reason status_by status_at:time",
                       evidence=("Outcome", "EVIDENCE"), supersedes=("ExperienceCard", "SUPERSEDES"))

Workflow = _node("Workflow", "L4: an owned procedure; ``current_version`` is set only by an owner's approval.",
                 "tenant! name! owner delegates:[str] safety:bool current_version created_at:time",
                 versions=("WorkflowVersion", "VERSION"))

WorkflowVersion = _node("WorkflowVersion",
                        "One immutable version of a workflow, with its content hash and check results.",
                        "tenant! uid! workflow number:int text scenario inputs:[str] outputs:[str] "
                        "tool_permissions:[str] validation_rules:[str] forbidden_steps:[str] required_steps:[str] "
                        "content_hash checked_hash check_passed:bool replay_passed:bool check_report status "
                        "from_card requested_by checked_at:time approved_at:time released_from rejected_by "
                        "rejected_at:time reject_reason rolled_back_at:time rolled_back_by used:int succeeded:int "
                        "failed:int regression:bool",
                        previous=("WorkflowVersion", "PREVIOUS"), promoted_from=("ExperienceCard", "PROMOTED_FROM"))

Approval = _node("Approval",
                 "An owner's (or delegate's) approval of exactly one version hash, recorded in the graph.",
                 "tenant! approver at:time version_hash comment workflow",
                 approves=("WorkflowVersion", "APPROVES"))

Summary = _node("Summary",
                "A derived copy: a deterministic summary of a subject (or one topic), the ledger version it was "
                "built at, DERIVED_FROM links to its facts, and ``stale`` once a later event touches them.",
                "tenant! uid! subject topic text version:int built_at:time stale:bool stale_seq:int builder",
                derived_from=("Fact", "DERIVED_FROM"))

EmbeddingState = _node("EmbeddingState",
                       "How far a tenant's fact embeddings are built: ledger sequence number and embedder name; and "
                       "how many of its facts and sources carry a vector (its share of the shared vector indexes).",
                       "tenant! seq:int embedder fact_vectors:int source_vectors:int")

WorkingSession = _node("WorkingSession",
                       "A working-memory session (graphmem.working.working): its budget policy, latest checkpoint, "
                       "context reads and how it closed — a projection of its ``working`` ledger events.",
                       "tenant! session! status(open|closed) policy checkpoint checkpoint_seq:int "
                       "checkpoint_at:time checkpoints:int added:int contexts:int context_tokens:int "
                       "context_budget:int context_dropped:int opened_at:time last_at:time last_seq:int "
                       "closed_at:time outcome task wrong_memory:int report")

WorkingItem = _node("WorkingItem",
                    "One item of a working-memory session: a turn, tool result, decision, hypothesis, instruction, "
                    "todo or summary, with its importance and token cost.",
                    "tenant! session! uid! type role author text importance:float tokens:int seq:int "
                    "created_at:time last_used_at:time cites:[str] covers:[str] claim temporary:bool source "
                    "evicted_at:time evict_reason replaced_by")

GraphmemSchema = _node("GraphmemSchema",
                       "Database-wide, not a tenant's: schema.cypher at this version has been installed here.",
                       "version! installed_at:time")


MODELS = (Entity, Topic, Source, Fact, Episode, Event, LedgerHead, Outcome, ExperienceCard, Workflow,
          WorkflowVersion, Approval, Summary, EmbeddingState, GraphmemSchema, WorkingSession, WorkingItem)


def install_schema(driver: Any, database: str | None = None) -> None:
    """Install graphmem's constraints and indexes on ``driver`` (idempotent), and the version marker
    clients check instead of installing again: the plan :meth:`graphmem.GraphMem.install_schema`
    runs, so a store written by an earlier graphmem is upgraded first (graphmem.store.upgrade) —
    marking it without would make every client skip the upgrade."""
    from ..store.client import GraphMem

    with GraphMem(driver=driver, database=database, install_schema=False) as mem:
        mem.install_schema()
