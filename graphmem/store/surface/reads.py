"""The public reads of facts and time: what holds (``as_of``), its timeline, why, entity paths,
episodes, the raw assertions and the ledger's pages; see :mod:`graphmem.store.surface`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import hints, ops
from ...core.answers import Answer, HistoryEntry, Why
from ..ops import Plan
from .common import When

if TYPE_CHECKING:
    from ..api import StoreApi
    from ...core.answers import Episode, SessionMessage

__all__ = ["round_trip", "as_of", "history", "why", "path", "episodes", "messages", "assertions", "events_page"]


def round_trip(mem: StoreApi) -> Plan[int]:
    """One read that does nothing (``RETURN 1``) through the very path every read takes: the
    floor under a read's latency (``graphmem bench`` reports as_of against it).

    >>> mem.round_trip()
    1
    """
    return ops.round_trip()


def as_of(mem: StoreApi, subject: str, topic: str, *, valid_at: When | None = None, known_at: When | None = None,
          env: str | None = None, session: str | None = None, include_candidates: bool = False) -> Plan[Answer]:
    """What holds for (subject, topic[, env]) at ``valid_at`` as known at ``known_at`` (both
    default now): an :class:`~graphmem.core.models.Answer` with the value (or values, or a conflict)
    and its source. An answer that holds nothing because of a typo says so in ``notes`` ("tenant
    'acme' has no topic 'home_adress'; did you mean home_address?", "no events in tenant 'acmee'").

    >>> mem.as_of("deploy", "port", valid_at="2024-04-01").value
    '8000'
    """
    answer: Answer = yield from ops.as_of(mem.tenant, mem._clock(), subject, topic, valid_at=valid_at,
                                          known_at=known_at, env=env, session=session,
                                          include_candidates=include_candidates)
    if answer.value is None and not answer.values and not answer.conflict:
        note = yield from hints.why_empty(mem.tenant, topic)
        if note is not None:
            answer.notes.append(note)
    return answer


def history(mem: StoreApi, subject: str, topic: str, *, env: str | None = None, known_at: When | None = None,
            session: str | None = None, include_candidates: bool = False) -> Plan[list[HistoryEntry]]:
    """The valid-time timeline as known at ``known_at``: one entry per stretch, in order.

    >>> [(e.valid_from, e.value) for e in mem.history("deploy", "port")]
    """
    return ops.history(mem.tenant, mem._clock(), subject, topic, env=env, known_at=known_at, session=session,
                       include_candidates=include_candidates)


def why(mem: StoreApi, subject: str, topic: str, *, valid_at: When | None = None, known_at: When | None = None,
        env: str | None = None, session: str | None = None, include_candidates: bool = False) -> Plan[Why]:
    """The source behind the answer and the change point (and source) it replaced.

    >>> mem.why("deploy", "port").source
    """
    return ops.why(mem.tenant, mem._clock(), subject, topic, valid_at=valid_at, known_at=known_at, env=env,
                   session=session, include_candidates=include_candidates)


def path(mem: StoreApi, start: str, path: list[str], *, valid_at: When | None = None, known_at: When | None = None,
         env: str | None = None, session: str | None = None, include_candidates: bool = False) -> Plan[Answer]:
    """Follow entity-valued topics from ``start``, every hop at the same (valid_at, known_at).

    >>> mem.path("caroline", ["employer", "city"]).value
    """
    return ops.path(mem.tenant, mem._clock(), start, path, valid_at=valid_at, known_at=known_at, env=env,
                    session=session, include_candidates=include_candidates)


def episodes(mem: StoreApi, *, who: str | None = None, since: When | None = None, until: When | None = None,
             text: str | None = None, known_at: When | None = None, limit: int = 50) -> Plan[list[Episode]]:
    """What people did, and when: stored episodes (:class:`~graphmem.core.models.Episode`) whose
    ``[start, end)`` overlaps ``[since, until)``, of ``who``, whose "what" or place contains
    ``text``, as known at ``known_at``; newest first (graphmem.recall.episode_store).

    >>> mem.episodes(who="caroline", since="2023-05-01", until="2023-06-01")
    """
    from ...recall.episode_store import episodes as plan
    return plan(mem.tenant, mem._clock(), who=who, since=since, until=until, text=text, known_at=known_at,
                limit=limit)


def messages(mem: StoreApi, session: str, *, limit: int = 1000) -> Plan[list[SessionMessage]]:
    """One session's messages in the order they were said (a chat history: what
    ``mem.add(rows, session=…)`` stored), at most ``limit``. Assistant, system and tool rows keep
    their role as the speaker unless they named one.

    >>> [m.text for m in mem.messages("s1")]
    """
    from ...core.answers import SessionMessage
    from ...core.fields import check_ids
    from ..projection import to_datetime

    check_ids(session=session)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        from ...core.errors import ValidationError
        raise ValidationError(f"limit must be a positive number of messages, not {limit!r}")
    rows = yield from ops.run_query("recall/session_messages", mem.tenant, session=session, limit=limit)
    from ...core.relay import relayed_by
    return [SessionMessage(id=r["id"], speaker=r["speaker"], text=r["text"], kind=r["kind"], at=to_datetime(r["at"]),
                           relayed_by=relayed_by([r["id"]], {r["id"]: r["relayed_by"]} if r["relayed_by"] else {}))
            for r in rows]


def assertions(mem: StoreApi, subject: str, topic: str, *, env: str | None = None) -> Plan[list[Any]]:
    """Every assertion ever made about (subject, topic, env), as the rules see them.

    >>> len(mem.assertions("deploy", "port"))
    """
    return ops.assertions(mem.tenant, subject, topic, env)


def events_page(mem: StoreApi, *, after: int = 0, limit: int = 1000) -> Plan[list[dict[str, Any]]]:
    """Up to ``limit`` ledger entries after sequence number ``after``, in order.

    >>> [e["op"] for e in mem.events_page(limit=10)]
    """
    return ops.events_page(mem.tenant, after, limit)
