"""The objects a client hands out over its store — ``mem.working(session)`` and ``mem.playbooks`` —
typed by the client that hands them out.

Their operations are written once (graphmem.working.working.WorkingPlans,
graphmem.playbooks.playbooks.PlaybookPlans) and graphmem.store.facegen writes a sync and an async
face of each. :class:`StoreObjects` is generic in those faces: the generated ``SyncFace``
(``GraphMem``) is a ``StoreObjects[WorkingMemory, Playbooks]`` and ``AsyncFace``
(``AsyncGraphMem``) a ``StoreObjects[AsyncWorkingMemory, AsyncPlaybooks]``, each naming its faces in
``_faces`` — so ``mem.working(s).add(...)`` is an ``AddResult`` and ``await amem.working(s).add(...)``
one too, for a type checker as at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Generic, Literal, TypeVar

from ..core.errors import ValidationError
from ..core.scope import bind_tenant
from .api import StoreApi

if TYPE_CHECKING:
    from ..working.working import WorkingPolicy

__all__ = ["StoreObjects"]

W = TypeVar("W")  # the working-memory face
P = TypeVar("P")  # the playbooks face


@bind_tenant
class StoreObjects(StoreApi, Generic[W, P]):
    """A store with the objects it hands out, typed by the faces ``W`` and ``P`` of its client."""

    def _faces(self) -> tuple[Callable[[Any, str, WorkingPolicy | None], W], Callable[[Any], P]]:
        raise NotImplementedError  # pragma: no cover - defined by the generated faces

    def working(self, session: str, *, budget_tokens: int | None = None,
                strategy: Literal["evict", "compress"] | None = None, warn_ratio: float | None = None,
                keep_recent: int | None = None, summary_ratio: float | None = None) -> W:
        """A session's working memory (graphmem.working.working): items under a token budget, checkpoints
        to resume from, and the end gate ``close(outcome)``. Giving a budget or strategy records a
        new policy for the session at its next write; otherwise the stored one (or the default) holds.

        >>> wm = mem.working("s-1", budget_tokens=4000)
        >>> wm.add("the user wants the report by Friday", role="user")
        """
        import pydantic

        from ..core.models import describe_errors
        from ..working.working import WorkingPolicy
        knobs = (("budget_tokens", budget_tokens), ("strategy", strategy), ("warn_ratio", warn_ratio),
                 ("keep_recent", keep_recent), ("summary_ratio", summary_ratio))
        given: dict[str, Any] = {k: v for k, v in knobs if v is not None}
        try:
            chosen = WorkingPolicy(**given) if given else None
        except pydantic.ValidationError as e:  # one line per knob, not pydantic's multi-line report
            raise ValidationError(f"bad working-memory policy: {describe_errors(e)}") from e
        return self._faces()[0](self, session, chosen)

    @property
    def playbooks(self) -> P:
        """L3 experience cards and L4 workflows of this tenant (graphmem.playbooks.playbooks).

        >>> mem.playbooks.cards()
        """
        return self._faces()[1](self)
