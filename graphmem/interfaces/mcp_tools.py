"""What every tool of ``graphmem mcp`` shares (graphmem.interfaces.mcp_server, mcp_working): the
principals fixed at start, and the rule that a refused call is an answer, not a crash — a
:class:`~graphmem.core.errors.GraphMemError` comes back as ``{"error": "<type>: <message>"}``.

A tool is a public coroutine method of a :class:`ToolSet`: the SDK reads its name, parameters
(``self`` is bound, so never shown) and docstring, exactly as it read the closures these were."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Awaitable, Callable, ClassVar, Coroutine, ParamSpec

from ..core.errors import GraphMemError
from ..store.aio import AsyncGraphMem

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

__all__ = ["ToolSet", "guarded"]

P = ParamSpec("P")
Answer = dict[str, Any]


def guarded(tool: Callable[P, Awaitable[Answer]]) -> Callable[P, Coroutine[Any, Any, Answer]]:
    """The tool, answering ``{"error": …}`` for a GraphMemError (its signature and docstring kept)."""
    @functools.wraps(tool)
    async def call(*args: P.args, **kwargs: P.kwargs) -> Answer:
        try:
            return await tool(*args, **kwargs)
        except GraphMemError as e:
            return {"error": f"{type(e).__name__}: {e}"}
    return call


@dataclass
class ToolSet:
    """Tools bound to one store (its tenant fixed) and the server's principals: ``user``, whose
    words may be recorded (None: started without --user), and ``agent``, the actor of every write."""

    store: AsyncGraphMem
    user: str | None
    agent: str

    TOOLS: ClassVar[tuple[str, ...]] = ()

    def register(self, server: MCPServer) -> None:
        """Add the tools named in ``TOOLS`` to ``server``, in that order."""
        for name in self.TOOLS:
            server.tool()(getattr(self, name))
