"""neomodel classes for graphmem's graph: for developers who like objects over Cypher.

They describe the same labels, properties and constraints as ``cypher/schema.cypher`` (a test
keeps the two in step). They are a *read* view: every write goes through the ledger
(:class:`graphmem.GraphMem`), never through ``save()``, or the projection would drift from its
ledger. neomodel is imported here only, so importing :mod:`graphmem` stays light.

Install the schema with one call, on your own driver::

    from graphmem.interfaces.ogm import install_schema
    install_schema(driver)            # the same statements as cypher/schema.cypher
"""

from __future__ import annotations

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


class Interval(StructuredRel):
    """Edges that carry valid time and record time (HOLDS, RELATED, HAS_FACT, VALUE)."""

    seg = StringProperty()
    topic = StringProperty()
    env = StringProperty()
    valid_from = DateTimeProperty()
    valid_to = DateTimeProperty()
    recorded_at = DateTimeProperty()
    superseded_at = DateTimeProperty()
    retracted_at = DateTimeProperty()
    conflict = BooleanProperty()
    fact = StringProperty()
    expires_at = DateTimeProperty()


class Stamp(StructuredRel):
    """Edges stamped with when and by which event they were recorded (SUPERSEDES, QUOTES)."""

    recorded_at = DateTimeProperty()
    event_seq = IntegerProperty()


class Entity(StructuredNode):
    """A person, project, place or service, inside one tenant."""

    tenant = StringProperty(required=True)
    uid = StringProperty(required=True)
    name = StringProperty()
    kind = StringProperty()
    holds = RelationshipTo("Fact", "HOLDS", model=Interval)
    has_fact = RelationshipTo("Fact", "HAS_FACT", model=Interval)
    related = RelationshipTo("Entity", "RELATED", model=Interval)


class Topic(StructuredNode):
    """The matter a fact is about (home_address, deploy.port…), with its cardinality."""

    tenant = StringProperty(required=True)
    name = StringProperty(required=True)
    cardinality = StringProperty(choices={"one": "one", "many": "many"})
    ttl_seconds = IntegerProperty()


class Source(StructuredNode):
    """Where a fact came from: a message, email, tool result, document or import."""

    tenant = StringProperty(required=True)
    uid = StringProperty(required=True)
    kind = StringProperty()
    at = DateTimeProperty()
    text = StringProperty()
    author = StringProperty()
    recorded_at = DateTimeProperty()
    expires_at = DateTimeProperty()
    seq = IntegerProperty()
    session = StringProperty()
    about = StringProperty()
    embedding = ArrayProperty(FloatProperty())
    quotes = RelationshipTo("Source", "QUOTES", model=Stamp)


class Fact(StructuredNode):
    """One assertion: a set or a revoke, with its intervals, authority, status and evidence."""

    tenant = StringProperty(required=True)
    uid = StringProperty(required=True)
    seq = IntegerProperty()
    kind = StringProperty(choices={"set": "set", "revoke": "revoke"})
    subject = StringProperty()
    topic = StringProperty()
    env = StringProperty()
    value = StringProperty()
    is_entity = BooleanProperty()
    valid_from = DateTimeProperty()
    valid_to = DateTimeProperty()
    recorded_at = DateTimeProperty()
    authority = StringProperty()
    session = StringProperty()
    status = StringProperty()
    confidence = FloatProperty()
    ref = StringProperty()
    author = StringProperty()
    said_at = DateTimeProperty()
    quoted = BooleanProperty()
    source = StringProperty()
    evidence = StringProperty()
    confirmed_at = DateTimeProperty()
    rejected_at = DateTimeProperty()
    retracted_at = DateTimeProperty()
    expires_at = DateTimeProperty()
    expired_at = DateTimeProperty()
    embedding = ArrayProperty(FloatProperty())
    about = RelationshipTo("Topic", "ABOUT")
    from_source = RelationshipTo("Source", "FROM")
    value_entity = RelationshipTo("Entity", "VALUE", model=Interval)
    supersedes = RelationshipTo("Fact", "SUPERSEDES", model=Stamp)


class Episode(StructuredNode):
    """Something a person did, where, and when (``[start, end)``), reported by its source."""

    tenant = StringProperty(required=True)
    uid = StringProperty(required=True)
    seq = IntegerProperty()
    who = StringProperty()
    what = StringProperty()
    where = StringProperty()
    start = DateTimeProperty()
    end = DateTimeProperty()
    evidence = StringProperty()
    source = StringProperty()
    said_at = DateTimeProperty()
    recorded_at = DateTimeProperty()
    planned = BooleanProperty()
    from_source = RelationshipTo("Source", "FROM")
    by = RelationshipTo("Entity", "BY")
    at_place = RelationshipTo("Entity", "AT")


class Event(StructuredNode):
    """One ledger entry: sequence number, op, JSON payload, actor, reason, record time."""

    tenant = StringProperty(required=True)
    seq = IntegerProperty(required=True)
    op = StringProperty()
    payload = StringProperty()
    actor = StringProperty()
    reason = StringProperty()
    recorded_at = DateTimeProperty()
    event_id = StringProperty()
    facts = ArrayProperty(StringProperty())
    applied_to = RelationshipTo("Fact", "APPLIED_TO")


class LedgerHead(StructuredNode):
    """The tenant's ledger head: last sequence number and record time (locked by each write)."""

    tenant = StringProperty(required=True)
    seq = IntegerProperty()
    last_recorded_at = DateTimeProperty()
    locked_by = StringProperty()
    summarised_at = DateTimeProperty()


class Outcome(StructuredNode):
    """One recorded task outcome: the evidence L3 cards are drawn from."""

    tenant = StringProperty(required=True)
    uid = StringProperty(required=True)
    task = StringProperty()
    area = StringProperty()
    steps = ArrayProperty(StringProperty())
    outcome = StringProperty(choices={"success": "success", "failure": "failure"})
    errors = ArrayProperty(StringProperty())
    at = DateTimeProperty()
    actor = StringProperty()


class ExperienceCard(StructuredNode):
    """L3: an automatically drawn lesson. Advice only: rejectable, roll-backable, never binding."""

    tenant = StringProperty(required=True)
    uid = StringProperty(required=True)
    signature = StringProperty()
    problem_signature = StringProperty()
    area = StringProperty()
    preconditions = ArrayProperty(StringProperty())
    recommended_steps = ArrayProperty(StringProperty())
    avoid_steps = ArrayProperty(StringProperty())
    validation = ArrayProperty(StringProperty())
    confidence = FloatProperty()
    status = StringProperty()
    version = IntegerProperty()
    created_at = DateTimeProperty()
    conflicts_with = ArrayProperty(StringProperty())
    status_reason = StringProperty()
    status_by = StringProperty()
    status_at = DateTimeProperty()
    evidence = RelationshipTo("Outcome", "EVIDENCE")
    supersedes = RelationshipTo("ExperienceCard", "SUPERSEDES")


class Workflow(StructuredNode):
    """L4: an owned procedure; ``current_version`` is set only by an owner's approval."""

    tenant = StringProperty(required=True)
    name = StringProperty(required=True)
    owner = StringProperty()
    delegates = ArrayProperty(StringProperty())
    safety = BooleanProperty()
    current_version = StringProperty()
    created_at = DateTimeProperty()
    versions = RelationshipTo("WorkflowVersion", "VERSION")


class WorkflowVersion(StructuredNode):
    """One immutable version of a workflow, with its content hash and check results."""

    tenant = StringProperty(required=True)
    uid = StringProperty(required=True)
    workflow = StringProperty()
    number = IntegerProperty()
    text = StringProperty()
    scenario = StringProperty()
    inputs = ArrayProperty(StringProperty())
    outputs = ArrayProperty(StringProperty())
    tool_permissions = ArrayProperty(StringProperty())
    validation_rules = ArrayProperty(StringProperty())
    forbidden_steps = ArrayProperty(StringProperty())
    required_steps = ArrayProperty(StringProperty())
    content_hash = StringProperty()
    checked_hash = StringProperty()
    check_passed = BooleanProperty()
    replay_passed = BooleanProperty()
    check_report = StringProperty()
    status = StringProperty()
    from_card = StringProperty()
    requested_by = StringProperty()
    checked_at = DateTimeProperty()
    approved_at = DateTimeProperty()
    released_from = StringProperty()
    rejected_by = StringProperty()
    rejected_at = DateTimeProperty()
    reject_reason = StringProperty()
    rolled_back_at = DateTimeProperty()
    rolled_back_by = StringProperty()
    used = IntegerProperty()
    succeeded = IntegerProperty()
    failed = IntegerProperty()
    regression = BooleanProperty()
    previous = RelationshipTo("WorkflowVersion", "PREVIOUS")
    promoted_from = RelationshipTo("ExperienceCard", "PROMOTED_FROM")


class Approval(StructuredNode):
    """An owner's (or delegate's) approval of exactly one version hash, recorded in the graph."""

    tenant = StringProperty(required=True)
    approver = StringProperty()
    at = DateTimeProperty()
    version_hash = StringProperty()
    comment = StringProperty()
    workflow = StringProperty()
    approves = RelationshipTo("WorkflowVersion", "APPROVES")


class Summary(StructuredNode):
    """A derived copy: a deterministic summary of a subject (or one topic), the ledger version it was
    built at, DERIVED_FROM links to its facts, and ``stale`` once a later event touches them."""

    tenant = StringProperty(required=True)
    uid = StringProperty(required=True)
    subject = StringProperty()
    topic = StringProperty()
    text = StringProperty()
    version = IntegerProperty()
    built_at = DateTimeProperty()
    stale = BooleanProperty()
    stale_seq = IntegerProperty()
    builder = StringProperty()

    derived_from = RelationshipTo("Fact", "DERIVED_FROM")


class EmbeddingState(StructuredNode):
    """How far a tenant's fact embeddings are built: ledger sequence number and embedder name; and
    how many of its facts and sources carry a vector (its share of the shared vector indexes)."""

    tenant = StringProperty(required=True)
    seq = IntegerProperty()
    embedder = StringProperty()
    fact_vectors = IntegerProperty()
    source_vectors = IntegerProperty()


class WorkingSession(StructuredNode):
    """A working-memory session (graphmem.working.working): its budget policy, latest checkpoint, context
    reads and how it closed — a projection of its ``working`` ledger events."""

    tenant = StringProperty(required=True)
    session = StringProperty(required=True)
    status = StringProperty(choices={"open": "open", "closed": "closed"})
    policy = StringProperty()
    checkpoint = StringProperty()
    checkpoint_seq = IntegerProperty()
    checkpoint_at = DateTimeProperty()
    checkpoints = IntegerProperty()
    added = IntegerProperty()
    contexts = IntegerProperty()
    context_tokens = IntegerProperty()
    context_budget = IntegerProperty()
    context_dropped = IntegerProperty()
    opened_at = DateTimeProperty()
    last_at = DateTimeProperty()
    last_seq = IntegerProperty()
    closed_at = DateTimeProperty()
    outcome = StringProperty()
    task = StringProperty()
    wrong_memory = IntegerProperty()
    report = StringProperty()


class WorkingItem(StructuredNode):
    """One item of a working-memory session: a turn, tool result, decision, hypothesis,
    instruction, todo or summary, with its importance and token cost."""

    tenant = StringProperty(required=True)
    session = StringProperty(required=True)
    uid = StringProperty(required=True)
    type = StringProperty()
    role = StringProperty()
    author = StringProperty()
    text = StringProperty()
    importance = FloatProperty()
    tokens = IntegerProperty()
    seq = IntegerProperty()
    created_at = DateTimeProperty()
    last_used_at = DateTimeProperty()
    cites = ArrayProperty(StringProperty())
    covers = ArrayProperty(StringProperty())
    claim = StringProperty()
    temporary = BooleanProperty()
    source = StringProperty()
    evicted_at = DateTimeProperty()
    evict_reason = StringProperty()
    replaced_by = StringProperty()


class GraphmemSchema(StructuredNode):
    """Database-wide, not a tenant's: schema.cypher at this version has been installed here."""

    version = StringProperty(required=True)
    installed_at = DateTimeProperty()


MODELS = (Entity, Topic, Source, Fact, Episode, Event, LedgerHead, Outcome, ExperienceCard, Workflow,
          WorkflowVersion, Approval, Summary, EmbeddingState, GraphmemSchema, WorkingSession, WorkingItem)


def install_schema(driver: Any, database: str | None = None) -> None:
    """Install graphmem's constraints and indexes on ``driver`` (idempotent), and the version marker
    clients check instead of installing again."""
    from ..store.queries import get, schema_statements, schema_version

    for statement in schema_statements():
        driver.execute_query(statement, database_=database)
    driver.execute_query(get("admin/schema_mark").text, version=schema_version(), database_=database)
