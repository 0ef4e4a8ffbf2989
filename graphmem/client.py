"""The synchronous client: one long-lived driver, short sessions, named Cypher, typed models.

A :class:`GraphMem` is bound to one tenant; every query it runs is scoped by that tenant
(``for_tenant`` gives a sibling on the same driver). Writes go through the ledger
(:mod:`graphmem.projection`), reads through the named queries in ``cypher/``; the temporal rules
themselves live in :mod:`graphmem.temporal`.

Reads of the default view (no L0 session, no candidates) are answered by the materialised
segments, in Cypher. Reads for an L0 ``session`` or with ``include_candidates`` resolve the
slot's assertions in Python with the same rules, because those views are per-asker.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Iterator

import neo4j
from neo4j import exceptions as neo4j_errors

from . import queries
from .errors import ConnectionError_, GraphMemError, NotFoundError, QueryError, ValidationError
from .models import Answer, HistoryEntry, MessageEvent, Why, WriteResult, parse_event, parse_time
from .projection import UnitOfWork, row_to_assertion, run, to_datetime
from .settings import Settings
from .temporal import Assertion, View, resolve, resolve_many, standing_before, timeline

__all__ = ["GraphMem", "utcnow"]

Clock = Callable[[], datetime]


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def _translate(e: Exception, what: str) -> GraphMemError:
    """Driver errors to graphmem errors, in one place. Credentials never enter a message."""
    if isinstance(e, neo4j_errors.AuthError):
        return ConnectionError_("Neo4j refused the credentials (check NEO4J_USER / NEO4J_PASSWORD)")
    if isinstance(e, (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired, OSError)):
        return ConnectionError_(f"no Neo4j answers ({type(e).__name__}); start one with "
                                "'graphmem server start' or set NEO4J_URI")
    if isinstance(e, neo4j_errors.Neo4jError):
        return QueryError(f"{e.code}: {e.message}", query=what)
    if isinstance(e, neo4j_errors.DriverError):
        return ConnectionError_(f"driver error: {type(e).__name__}: {e}")
    return GraphMemError(str(e))


class GraphMem:
    """A temporal memory store for one tenant. Use as a context manager, or call :meth:`close`."""

    def __init__(self, settings: Settings | None = None, *, tenant: str = "default",
                 driver: neo4j.Driver | None = None, clock: Clock = utcnow,
                 extractor: Any = None, install_schema: bool = True) -> None:
        if not isinstance(tenant, str) or not tenant.strip():
            raise ValidationError("tenant must be a non-empty string")
        self.settings = settings or Settings.from_env()
        self.tenant = tenant
        self._clock = clock
        self._extractor = extractor
        self._owns_driver = driver is None
        try:
            self._driver = driver or neo4j.GraphDatabase.driver(
                self.settings.uri, auth=self.settings.auth, notifications_min_severity="OFF")
        except (ValueError, neo4j_errors.ConfigurationError) as e:
            raise ValidationError(f"bad NEO4J_URI {self.settings.uri!r}: {e}") from e
        if install_schema:
            self.install_schema()

    # -- lifecycle -------------------------------------------------------------------------------

    def for_tenant(self, tenant: str) -> "GraphMem":
        """The same store, another tenant, sharing this client's driver."""
        return GraphMem(self.settings, tenant=tenant, driver=self._driver, clock=self._clock,
                        extractor=self._extractor, install_schema=False)

    def close(self) -> None:
        if self._owns_driver:
            self._driver.close()

    def __enter__(self) -> "GraphMem":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def install_schema(self) -> None:
        """Create graphmem's constraints and indexes (idempotent)."""
        for statement in queries.schema_statements():
            self._call(lambda s=statement: self._driver.execute_query(s, database_=self.settings.database), "schema")

    def ping(self) -> str:
        """The server's version string; raises ConnectionError_ when nothing answers."""
        def go() -> str:
            self._driver.verify_connectivity()
            return self._driver.get_server_info().agent
        return self._call(go, "ping")

    # -- plumbing --------------------------------------------------------------------------------

    def _call(self, fn: Callable[[], Any], what: str) -> Any:
        try:
            return fn()
        except GraphMemError:
            raise
        except (neo4j_errors.Neo4jError, neo4j_errors.DriverError, OSError) as e:
            raise _translate(e, what) from e

    def _session(self) -> neo4j.Session:
        return self._driver.session(database=self.settings.database)

    def _read(self, query: str, /, **params: Any) -> list[dict[str, Any]]:
        q = queries.get(query)
        params = {"tenant": self.tenant, **params}
        q.check(params)

        def go() -> list[dict[str, Any]]:
            records, _, _ = self._driver.execute_query(q.text, params, database_=self.settings.database,
                                                       routing_=neo4j.RoutingControl.READ)
            return [r.data() for r in records]
        return self._call(go, query)

    def _write(self, fn: Callable[[Any], Any], what: str) -> Any:
        def go() -> Any:
            with self._session() as session:
                return session.execute_write(fn)
        return self._call(go, what)

    def _extract(self, message: MessageEvent, context: list[Any]) -> list[Any]:
        if self._extractor is None:
            from .extract import default_extractor
            self._extractor = default_extractor()
        return list(self._extractor.extract(message, context))

    # -- writes ----------------------------------------------------------------------------------

    def apply(self, event: Any) -> WriteResult:
        """Validate and apply one event (a FORMAT.md dict, JSON text, or a model); one transaction.

        A malformed event raises :class:`ValidationError` (or a subclass) and writes nothing.
        """
        ev = parse_event(event)
        tenant = ev.tenant or self.tenant
        now = self._clock()

        def work(tx: Any) -> WriteResult:
            unit = UnitOfWork(tx, tenant, now, self._extract)
            result = unit.apply(ev)
            unit.flush()
            return result
        return self._write(work, f"apply {ev.op}")

    def apply_many(self, events: Iterable[Any]) -> list[WriteResult]:
        """Apply events in order, one transaction each; stops at the first error."""
        return [self.apply(e) for e in events]

    def apply_bulk(self, events: Iterable[Any], *, batch_size: int = 2000,
                   progress: Callable[[int], None] | None = None) -> list[WriteResult]:
        """Apply many events in order, ``batch_size`` to a transaction (the bulk import path).

        Every event is validated before anything is written. Each batch is atomic: an event the
        store refuses (say, a record time running back) rolls its whole batch back and raises
        with the event's index; earlier batches stay applied. Events for another tenant (a
        ``tenant`` field) are refused here: bulk loads are per tenant.
        """
        parsed = []
        for i, e in enumerate(events):
            try:
                ev = parse_event(e)
            except GraphMemError as err:
                raise type(err)(f"event {i}: {err}") from err
            if ev.tenant not in (None, self.tenant):
                raise ValidationError(f"event {i}: apply_bulk loads one tenant ({self.tenant!r}), not {ev.tenant!r}")
            parsed.append(ev)
        results: list[WriteResult] = []
        for start in range(0, len(parsed), batch_size):
            batch = parsed[start:start + batch_size]
            now = self._clock()

            def work(tx: Any, batch: list[Any] = batch, start: int = start) -> list[WriteResult]:
                unit = UnitOfWork(tx, self.tenant, now, self._extract)
                unit.prefetch(batch)
                out = []
                for i, ev in enumerate(batch):
                    try:
                        out.append(unit.apply(ev))
                    except (ValidationError, NotFoundError) as err:
                        raise type(err)(f"event {start + i}: {err}") from err
                unit.flush()
                return out
            results.extend(self._write(work, "apply_bulk"))
            if progress is not None:
                progress(len(batch))
        return results

    def add_source(self, id: str, *, kind: str, at: Any, text: str = "", author: str | None = None,
                   **extra: Any) -> WriteResult:
        return self.apply({"op": "source", "id": id, "kind": kind, "at": at, "text": text,
                           "author": author, **extra})

    def declare_topic(self, name: str, cardinality: str = "one", **extra: Any) -> WriteResult:
        return self.apply({"op": "topic", "name": name, "cardinality": cardinality, **extra})

    def set(self, subject: str, topic: str, value: Any = None, **fields: Any) -> WriteResult:
        """Assert ``value`` (or ``object=`` an entity id) for (subject, topic[, env])."""
        return self.apply({"op": "set", "subject": subject, "topic": topic, "value": value, **fields})

    def revoke(self, subject: str, topic: str, **fields: Any) -> WriteResult:
        return self.apply({"op": "revoke", "subject": subject, "topic": topic, **fields})

    def retract(self, ref: str, **fields: Any) -> WriteResult:
        return self.apply({"op": "retract", "ref": ref, **fields})

    def confirm(self, ref: str, **fields: Any) -> WriteResult:
        return self.apply({"op": "confirm", "ref": ref, **fields})

    def reject(self, ref: str, **fields: Any) -> WriteResult:
        return self.apply({"op": "reject", "ref": ref, **fields})

    def quote(self, source: str, quotes: str, claims: list[dict[str, Any]] | None = None, **fields: Any) -> WriteResult:
        return self.apply({"op": "quote", "source": source, "quotes": quotes, "claims": claims or [], **fields})

    def ingest(self, text: str, *, id: str, speaker: str, at: Any = None, about: str | None = None,
               session: str | None = None, kind: str = "message", **fields: Any) -> WriteResult:
        """Free text: the extractor draws the events; the message becomes their source."""
        return self.apply({"op": "message", "id": id, "at": at or self._clock(), "speaker": speaker,
                           "text": text, "about": about, "session": session, "kind": kind, **fields})

    # -- reads -----------------------------------------------------------------------------------

    def _times(self, valid_at: Any, known_at: Any) -> tuple[datetime, datetime]:
        now = self._clock()
        return (parse_time(valid_at) if valid_at is not None else now,
                parse_time(known_at) if known_at is not None else now)

    def _many(self, topic: str) -> bool:
        rows = self._read("topic/get", name=topic)
        return bool(rows) and rows[0]["cardinality"] == "many"

    def assertions(self, subject: str, topic: str, *, env: str | None = None) -> list[Assertion]:
        """Every assertion ever made about (subject, topic, env), as the rules see them."""
        rows = self._read("fact/slot", subject=subject, topic=topic, env=env or "")
        return [row_to_assertion(r) for r in rows]

    def as_of(self, subject: str, topic: str, *, valid_at: Any = None, known_at: Any = None,
              env: str | None = None, session: str | None = None,
              include_candidates: bool = False) -> Answer:
        """What holds for (subject, topic[, env]) at ``valid_at`` as known at ``known_at`` (both default now)."""
        t, k = self._times(valid_at, known_at)
        base = dict(subject=subject, topic=topic, env=env, valid_at=t, known_at=k)
        if session is None and not include_candidates:
            rows = self._read("as_of", subject=subject, topic=topic, env=env or "", valid_at=t, known_at=k)
            many = rows[0]["cardinality"] == "many"
            return self._answer_from_rows([r for r in rows if r["fact"] is not None], many, base)
        many = self._many(topic)
        view = View(known_at=k, session=session, include_candidates=include_candidates)
        slot = self.assertions(subject, topic, env=env)
        results = resolve_many(slot, t, view) if many else [resolve(slot, t, view, subject)]
        return self._answer_from_resolutions(results, many, base)

    @staticmethod
    def _answer_from_rows(rows: list[dict[str, Any]], many: bool, base: dict[str, Any]) -> Answer:
        if not rows:
            return Answer(**base, values=[] if many else None)
        first = rows[0]
        common = dict(source=first["source"], fact=first["fact"], authority=first["authority"],
                      status=first["status"], is_entity=bool(first["is_entity"]),
                      valid_from=to_datetime(first["valid_from"]), valid_to=to_datetime(first["valid_to"]),
                      sources=[r["source"] for r in rows if r["source"]])
        if many:
            return Answer(**base, **common, values=[r["value"] for r in rows])
        if any(r["conflict"] for r in rows):
            return Answer(**base, **common, conflict=sorted({r["value"] for r in rows}, key=str))
        return Answer(**base, **common, value=first["value"])

    @staticmethod
    def _answer_from_resolutions(results: list[Any], many: bool, base: dict[str, Any]) -> Answer:
        results = [r for r in results if r.kind != "none"]
        if not results:
            return Answer(**base, values=[] if many else None)
        w = results[0].primary
        common = dict(source=w.source, fact=w.uid, authority=w.authority, status=w.status,
                      is_entity=w.is_entity, valid_from=w.valid_from, valid_to=w.valid_to,
                      sources=[x.source for r in results for x in r.winners if x.source])
        if many:
            return Answer(**base, **common, values=[r.value for r in results])
        r = results[0]
        if r.kind == "conflict":
            return Answer(**base, **common, conflict=sorted({v for v in r.values if v is not None}, key=str))
        return Answer(**base, **common, value=r.value)

    def history(self, subject: str, topic: str, *, env: str | None = None, known_at: Any = None,
                session: str | None = None, include_candidates: bool = False) -> list[HistoryEntry]:
        """The valid-time timeline as known at ``known_at``: one entry per stretch, in order."""
        _, k = self._times(None, known_at)
        if session is None and not include_candidates:
            rows = self._read("history", subject=subject, topic=topic, env=env or "", known_at=k)
            segs = [(to_datetime(r["valid_from"]), to_datetime(r["valid_to"]), r["value"], bool(r["conflict"]),
                     r["source"], r["fact"]) for r in rows]
        else:
            view = View(known_at=k, session=session, include_candidates=include_candidates)
            slot = self.assertions(subject, topic, env=env)
            by_uid = {a.uid: a for a in slot}
            segs = [(s.valid_from, s.valid_to, by_uid[s.fact].value, s.conflict, by_uid[s.fact].source, s.fact)
                    for s in timeline(slot, view, subject, many=self._many(topic))]
        return _history_entries(segs)

    def history_values(self, subject: str, topic: str, **kw: Any) -> list[str]:
        """The history as FORMAT.md counts it: values in the order they became valid, repeats merged."""
        out: list[str] = []
        for entry in self.history(subject, topic, **kw):
            label = entry.value if entry.conflict is None else " | ".join(entry.conflict)
            if label is not None and (not out or out[-1] != label):
                out.append(label)
        return out

    def why(self, subject: str, topic: str, *, valid_at: Any = None, known_at: Any = None,
            env: str | None = None, session: str | None = None, include_candidates: bool = False) -> Why:
        """The source behind the answer, and the change point (and its source) it replaced."""
        t, k = self._times(valid_at, known_at)
        if session is None and not include_candidates:
            rows = self._read("why", subject=subject, topic=topic, env=env or "", valid_at=t, known_at=k)
            if not rows:
                return Why(subject=subject, topic=topic)
            r = rows[0]
            conflict = sorted({x["value"] for x in rows}) if any(x["conflict"] for x in rows) else None
            return Why(subject=subject, topic=topic, value=None if conflict else r["value"], conflict=conflict,
                       source=r["source"], fact=r["fact"], supersedes_source=r["supersedes_source"],
                       supersedes_fact=r["supersedes_fact"], supersedes_value=r["supersedes_value"],
                       quoted_by=r["quoted_by"], text=r["text"])
        view = View(known_at=k, session=session, include_candidates=include_candidates)
        slot = self.assertions(subject, topic, env=env)
        res = resolve(slot, t, view, subject)
        if res.kind == "none":
            return Why(subject=subject, topic=topic)
        w = res.primary
        before = standing_before(slot, w.valid_from, view, subject, exclude=w.uid)  # type: ignore[union-attr]
        prev = before.primary
        return Why(subject=subject, topic=topic, value=res.value,
                   conflict=[v for v in res.values if v] if res.kind == "conflict" else None,
                   source=w.source, fact=w.uid,  # type: ignore[union-attr]
                   supersedes_source=prev.source if prev else None, supersedes_fact=prev.uid if prev else None,
                   supersedes_value=prev.value if prev else None)

    def path(self, start: str, path: list[str], *, valid_at: Any = None, known_at: Any = None,
             env: str | None = None, session: str | None = None, include_candidates: bool = False) -> Answer:
        """Follow entity-valued topics from ``start``, each hop answered at the same (t, k)."""
        if not path:
            raise ValidationError("path needs at least one topic")
        t, k = self._times(valid_at, known_at)
        base = dict(subject=start, topic=".".join(path), env=env, valid_at=t, known_at=k)
        if session is None and not include_candidates:
            rows = self._read("path", start=start, path=list(path), env=env or "", valid_at=t, known_at=k)
            return self._answer_from_rows(rows, self._many(path[-1]), base)
        subject = start
        for topic in path[:-1]:
            hop = self.as_of(subject, topic, valid_at=t, known_at=k, env=env, session=session,
                             include_candidates=include_candidates)
            if hop.value is None or not hop.is_entity:
                return Answer(**base)
            subject = hop.value
        last = self.as_of(subject, path[-1], valid_at=t, known_at=k, env=env, session=session,
                          include_candidates=include_candidates)
        return last.model_copy(update=base)

    # -- ledger ----------------------------------------------------------------------------------

    def events(self, *, after: int = 0, batch: int = 1000) -> Iterator[dict[str, Any]]:
        """The tenant's ledger in order (seq, op, payload, recorded_at, ...)."""
        while True:
            rows = self._read("ledger/events", after=after, limit=batch)
            if not rows:
                return
            for r in rows:
                r["recorded_at"] = to_datetime(r["recorded_at"])
                yield r
            after = rows[-1]["seq"]

    def rebuild(self, *, batch: int = 2000) -> int:
        """Drop the projection and replay the ledger from empty; returns the events replayed.

        Replay uses each event's stored sequence number and record time, and the events a
        message drew (never the extractor), so the projection comes out identical.
        """
        while self._write(lambda tx: run(tx, "admin/drop_projection", tenant=self.tenant, batch=10_000)[0]["deleted"],
                          "admin/drop_projection"):
            pass
        count = 0
        rows: list[dict[str, Any]] = []

        def replay(tx: Any, rows: list[dict[str, Any]]) -> None:
            unit = UnitOfWork(tx, self.tenant, self._clock(), self._extract)
            unit.prefetch(parse_event(json.loads(r["payload"])) for r in rows)
            for row in rows:
                unit.replay(row)
            unit.flush(append=False)
        for row in self.events(batch=batch):
            rows.append(row)
            if len(rows) >= batch:
                self._write(lambda tx, r=rows: replay(tx, r), "replay")
                count, rows = count + len(rows), []
        if rows:
            self._write(lambda tx, r=rows: replay(tx, r), "replay")
            count += len(rows)
        return count

    def drop_tenant(self, *, batch: int = 1000) -> None:
        """Delete everything this tenant has, ledger included. For tests and evaluation."""
        while self._write(lambda tx: run(tx, "admin/drop_tenant", tenant=self.tenant, batch=batch)[0]["deleted"],
                          "admin/drop_tenant"):
            pass


def _history_entries(segs: list[tuple]) -> list[HistoryEntry]:
    """Group segment rows (conflicts come as several rows of one stretch) into entries."""
    grouped: dict[tuple, list[tuple]] = {}
    for s in sorted(segs, key=lambda s: (s[0], str(s[2]))):
        grouped.setdefault((s[0], s[1], s[3]), []).append(s)
    out: list[HistoryEntry] = []
    for (start, end, conflict), rows in grouped.items():
        if conflict:
            out.append(HistoryEntry(conflict=sorted({r[2] for r in rows}), valid_from=start, valid_to=end,
                                    source=rows[0][4], fact=rows[0][5]))
        else:
            out.extend(HistoryEntry(value=r[2], valid_from=start, valid_to=end, source=r[4], fact=r[5]) for r in rows)
    return out
