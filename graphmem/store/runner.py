"""Running a plan, written once for both clients: all but the step itself.

A plan (:mod:`graphmem.store.plans`) yields steps and receives their results. :class:`PlanRun`
holds one plan's progress — the step due, the name errors are reported under, the value once it
returns — and turns driver errors into graphmem's (:func:`graphmem.store.api.translate`): an error
of a step is thrown into the plan, which may degrade (an optional recall leg) or not; one the plan
raises itself is translated on its way out. The sync client calls each step, the async client
awaits it; that is all either adds::

    run = PlanRun(plan)
    while not run.done:
        try:
            result = self._step(run.step)        # ``await self._step(...)`` on the async client
        except DRIVER_ERRORS as e:
            run.throw(e)
        else:
            run.send(result)
    return run.value

A plan that starts a transaction or a read behind itself (:class:`~graphmem.store.plans.Start`)
waits for it; if the plan stops early (an error), :attr:`PlanRun.started` still holds the handles
the client must wait for before it returns, so nothing outlives the call that began it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Generic, TypeVar

from ..core.errors import GraphMemError
from .api import DRIVER_ERRORS, from_driver, translate
from .plans import Plan, Start, Wait

if TYPE_CHECKING:
    from .settings import Settings

__all__ = ["PlanRun"]

T = TypeVar("T")


class PlanRun(Generic[T]):
    """One plan on its way: :attr:`step` is due until :attr:`done`; then :attr:`value` is its result."""

    def __init__(self, plan: Plan[T], settings: Settings | None = None) -> None:
        self._plan = plan
        self._settings = settings  # the client's: a connection error names the URI tried
        self.what = "plan"  # the name errors are reported under: the last step's, or the schema's
        self.step: Any = None
        self.done = False
        self._value: Any = None
        self.started: dict[Any, str] = {}  # steps begun behind the plan, not yet waited for: handle -> name
        self._advance(plan.send, None)

    @property
    def value(self) -> T:
        value: T = self._value
        return value

    def send(self, result: Any) -> None:
        """The due step's result into the plan; then the next step is due, or the plan is done."""
        if isinstance(self.step, Start):
            self.started[result] = self.step.step.name
        elif isinstance(self.step, Wait):
            self.started.pop(self.step.handle, None)
        self._advance(self._plan.send, result)

    def throw(self, e: Exception) -> None:
        """A driver error of the due step into the plan, as graphmem's error. An ``OSError`` that is not
        the driver's (graphmem's or the caller's, :func:`~graphmem.store.api.from_driver`) is raised as is."""
        if isinstance(self.step, Wait):
            self.started.pop(self.step.handle, None)
        if not from_driver(e):
            raise e
        err = translate(e, self.what, self._settings)
        err.__cause__ = e
        self._advance(self._plan.throw, err)

    def _advance(self, move: Callable[[Any], Any], arg: Any) -> None:
        try:
            self.step = move(arg)
        except StopIteration as stop:
            self.done, self._value = True, stop.value
            return
        except GraphMemError:
            raise
        except DRIVER_ERRORS as e:  # raised by the plan itself, not by a step
            if not from_driver(e):
                raise
            raise translate(e, self.what, self._settings) from e
        step = self.step.step if isinstance(self.step, Start) else self.step
        if isinstance(step, Wait):  # a transaction started behind: its errors go by its name
            self.what = self.started.get(step.handle, self.what)
        else:
            self.what = getattr(step, "name", "schema")
