"""neomodel classes for graphmem's graph: for developers who like objects over Cypher.

They describe the same labels, properties and constraints as ``cypher/schema.cypher`` (a test
keeps the two in step). They are a *read* view: every write goes through the ledger
(:class:`graphmem.GraphMem`), never through ``save()``, or the projection would drift from its
ledger. neomodel is imported here only, so importing :mod:`graphmem` stays light.

Install the schema with one call, on your own driver::

    from graphmem.ogm import install_schema
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

__all__ = ["Entity", "Event", "Fact", "LedgerHead", "Source", "Topic", "install_schema"]


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


class Source(StructuredNode):
    """Where a fact came from: a message, email, tool result, document or import."""

    tenant = StringProperty(required=True)
    uid = StringProperty(required=True)
    kind = StringProperty()
    at = DateTimeProperty()
    text = StringProperty()
    author = StringProperty()
    recorded_at = DateTimeProperty()
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
    about = RelationshipTo("Topic", "ABOUT")
    from_source = RelationshipTo("Source", "FROM")
    value_entity = RelationshipTo("Entity", "VALUE", model=Interval)
    supersedes = RelationshipTo("Fact", "SUPERSEDES", model=Stamp)


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


MODELS = (Entity, Topic, Source, Fact, Event, LedgerHead)


def install_schema(driver: Any, database: str | None = None) -> None:
    """Install graphmem's constraints and indexes on ``driver`` (idempotent)."""
    from .queries import schema_statements

    for statement in schema_statements():
        driver.execute_query(statement, database_=database)
