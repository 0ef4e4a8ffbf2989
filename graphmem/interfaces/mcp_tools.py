"""What every tool of ``graphmem mcp`` shares (graphmem.interfaces.mcp_server, mcp_working): the
principals fixed at start, the relay mark, and one error convention.

**Errors.** A refused call — a :class:`~graphmem.core.errors.GraphMemError` in a tool, or
arguments that do not fit its schema — is a tool result with ``isError: true`` and one text
content ``Error executing tool <name>: <ErrorType>: <message>`` (docs/mcp.md). Nothing refused
ever comes back as an ordinary result with an ``error`` field.

**Relayed words.** Words the model records as the user's (``remember(said_by="user")``,
``remember_messages`` user rows, ``working_add(said_by="user")``) are the user's, with the
message's ``relayed_by`` set to the agent (graphmem.core.relay): the user did not send them to the
store, the agent relayed them. The id stays the one the model gave. Every answer and context item
drawn from them carries ``relayed_by`` and says so in its warnings (:func:`relay_warning`); a
store written when the mark was an id prefix (``relayed~claude~m2``) is read the same way.

A tool is a public coroutine method of a :class:`ToolSet`: the SDK reads its name, parameters
(``self`` is bound, so never shown; each described with ``Annotated[..., Field(description=…)]``)
and docstring."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Awaitable, Callable, ClassVar, Coroutine, ParamSpec

from ..core.errors import GraphMemError
from ..core.relay import relay_note
from ..store.aio import AsyncGraphMem

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

__all__ = ["ToolSet", "clean_argument_errors", "guarded", "made_id", "relay_warning"]

P = ParamSpec("P")
Answer = dict[str, Any]

def relay_warning(agent: str) -> str:
    """The ``relayed: …`` warning of an answer whose words ``agent`` relayed as the user's (the
    same text as a recall item's ``relayed`` warning)."""
    return f"relayed: {relay_note(agent)}"


def made_id(*parts: str | None) -> str:
    """A deterministic id for a call that gave none: a retry of the same call is a duplicate."""
    key = "\x1f".join(p or "" for p in parts)
    return "mcp-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]


def guarded(tool: Callable[P, Awaitable[Answer]]) -> Callable[P, Coroutine[Any, Any, Answer]]:
    """The tool, a GraphMemError turned into the SDK's ToolError (``isError: true``), its
    signature and docstring kept."""
    @functools.wraps(tool)
    async def call(*args: P.args, **kwargs: P.kwargs) -> Answer:
        from mcp.server.mcpserver.exceptions import ToolError
        try:
            return await tool(*args, **kwargs)
        except GraphMemError as e:
            raise ToolError(f"{type(e).__name__}: {e}") from e
    return call


def clean_argument_errors(server: MCPServer) -> None:
    """Make arguments that fail a tool's schema read like every other refusal — ``ValidationError:
    <argument>: <what is wrong>``, without pydantic's banner and help URL — and an unknown tool too
    (``NotFoundError: no tool 'x'``)."""
    from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
    from pydantic import ValidationError as PydanticError
    call_tool = server.call_tool

    @functools.wraps(call_tool)
    async def call(name: str, arguments: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return await call_tool(name, arguments, *args, **kwargs)
        except ToolError as e:
            cause = e.__cause__
            if str(e).startswith("Unknown tool"):
                raise ToolError(f"Error executing tool {name}: NotFoundError: no tool {name!r}") from e
            if isinstance(e, UnexpectedToolError) or not isinstance(cause, PydanticError):
                raise
            parts = [f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}" for err in cause.errors()]
            raise ToolError(f"Error executing tool {name}: ValidationError: {'; '.join(parts)}") from cause
    server.call_tool = call  # type: ignore[method-assign]


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
