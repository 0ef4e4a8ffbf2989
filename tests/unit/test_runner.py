"""PlanRun: what both clients do with a plan, but the step itself — values, errors thrown into the
plan (which may degrade), errors the plan raises, and OSErrors that are not the driver's."""

from __future__ import annotations

from typing import Any

import neo4j.exceptions as neo4j_errors
import pytest

from graphmem.core.errors import ConnectionError_, QueryError
from graphmem.store.api import DRIVER_ERRORS
from graphmem.store.plans import Tx
from graphmem.store.runner import PlanRun


def _run(plan: Any, step: Any) -> Any:
    """The sync client's loop, with ``step`` for the driver."""
    run = PlanRun(plan)
    while not run.done:
        try:
            result = step(run.step)
        except DRIVER_ERRORS as e:
            run.throw(e)
        else:
            run.send(result)
    return run.value


def _plan(*names: str, degrade: bool = False) -> Any:
    got = []
    for name in names:
        try:
            got.append((yield Tx(list, name)))
        except QueryError as e:
            if not degrade:
                raise
            got.append(f"degraded: {e.query}")
    return got


def test_a_plan_gets_each_result_and_returns_its_value():
    assert _run(_plan("as_of", "history"), lambda tx: [tx.name]) == [["as_of"], ["history"]]
    assert _run(_plan(), lambda call: None) == []


def _refuse(call: Any) -> Any:
    raise neo4j_errors.ClientError("no")


def test_a_driver_error_of_a_step_is_thrown_into_the_plan_as_graphmems():
    assert _run(_plan("as_of", degrade=True), _refuse) == ["degraded: as_of"]
    with pytest.raises(QueryError) as info:
        _run(_plan("as_of", "history"), _refuse)
    assert info.value.query == "as_of" and isinstance(info.value.__cause__, neo4j_errors.ClientError)


def test_an_oserror_that_is_not_the_drivers_is_raised_as_is():
    def broken(call: Any) -> Any:
        raise FileNotFoundError("weights.bin")

    with pytest.raises(FileNotFoundError):
        _run(_plan("as_of", degrade=True), broken)


def test_a_driver_error_the_plan_raises_is_translated_under_the_last_step():
    def plan() -> Any:
        yield Tx(list, "as_of")
        raise neo4j_errors.ServiceUnavailable("gone")

    with pytest.raises(ConnectionError_):
        _run(plan(), lambda call: [])


def test_transactions_started_behind_the_plan_are_tracked_until_waited_for():
    """A started transaction's handle is in ``started`` until the plan waits for it; if the plan
    stops first, the client still finds it there (and waits for it before it returns)."""
    from graphmem.store.plans import Start, Wait

    def plan(stop_early: bool) -> Any:
        first = yield Start(Tx(list, "batch 1"))
        second = yield Start(Tx(list, "batch 2"))
        if stop_early:
            raise ValueError("stopped")
        return [(yield Wait(first)), (yield Wait(second))]

    handles = iter(["h1", "h2"])

    def step(s: Any) -> Any:
        return next(handles) if isinstance(s, Start) else f"done {s.handle}"

    run = PlanRun(plan(False))
    while not run.done:
        run.send(step(run.step))
        if not run.done and isinstance(run.step, Wait):
            assert run.what == {"h1": "batch 1", "h2": "batch 2"}[run.step.handle]
    assert run.value == ["done h1", "done h2"] and run.started == {}

    handles = iter(["h1", "h2"])
    run = PlanRun(plan(True))
    with pytest.raises(ValueError):
        while not run.done:
            run.send(step(run.step))
    assert run.started == {"h1": "batch 1", "h2": "batch 2"}


def test_an_error_of_a_transaction_behind_is_reported_under_its_name():
    from graphmem.store.plans import Start, Wait

    def plan() -> Any:
        handle = yield Start(Tx(list, "apply_bulk"))
        return (yield Wait(handle))

    def step(s: Any) -> Any:
        if isinstance(s, Wait):
            raise neo4j_errors.ClientError("no")
        return "h"

    with pytest.raises(QueryError) as info:
        _run(plan(), step)
    assert info.value.query == "apply_bulk"


def test_a_read_started_behind_the_plan_is_waited_for_and_reported_under_its_name():
    """context() starts the message read behind itself: the plan goes on, gets the rows when it
    waits, and a failure of that read is reported under the query's name."""
    from graphmem.store.plans import Start, Wait, query_call

    def plan() -> Any:
        handle = yield Start(query_call("recall/messages", "t1", k=3))
        mine = yield query_call("recall/begin", "t1")
        return mine, (yield Wait(handle))

    def step(s: Any) -> Any:
        if isinstance(s, Start):
            assert s.step.name == "recall/messages" and s.step.params["tenant"] == "t1"
            return "h"
        return ["said"] if isinstance(s, Wait) else ["head"]

    assert _run(plan(), step) == (["head"], ["said"])

    def failing(s: Any) -> Any:
        if isinstance(s, Wait):
            raise neo4j_errors.ClientError("no")
        return "h" if isinstance(s, Start) else []

    with pytest.raises(QueryError) as info:
        _run(plan(), failing)
    assert info.value.query == "recall/messages"
