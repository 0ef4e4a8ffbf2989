"""A LangChain chat message history kept in graphmem: :class:`GraphMemChatMessageHistory`.

LangChain's ``RunnableWithMessageHistory`` (and anything else that takes a
``BaseChatMessageHistory``) reads a session's messages and appends new ones. Here both go
through the client: appending is :meth:`GraphMem.add` with the messages as ``{role, content}`` rows,
so a human's words draw facts as that person's statements and an AI, system or tool message never
becomes a person's fact (graphmem.extract.roles); reading is :meth:`GraphMem.messages`, the session's
messages in the order they were said. Everything else graphmem knows stays available beside it:
``mem.context(task, session=…)`` for the facts the conversation established.

``clear()`` is refused: the ledger is append-only, and forgetting what a person said is an erase a
person confirms (``mem.request_erase``, docs/governance.md), not something a chain does in passing.

Needs the ``langchain`` extra (``pip install 'graphmem[langchain]'``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import ValidationError
from ..core.extras import require

require("langchain", "langchain_core")

from langchain_core.chat_history import BaseChatMessageHistory  # noqa: E402 - after the extra's check
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage  # noqa: E402

if TYPE_CHECKING:
    from ..core.answers import SessionMessage
    from ..store.client import GraphMem

__all__ = ["GraphMemChatMessageHistory"]

ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}
#: how many messages a session may hold for this history to read them all back
MAX_MESSAGES = 100_000


class GraphMemChatMessageHistory(BaseChatMessageHistory):
    """One session's chat history in a graphmem tenant; ``user`` is whose words the human messages are.

    >>> history = GraphMemChatMessageHistory(GraphMem(tenant="acme"), "s1", user="lin")
    >>> history.add_messages([HumanMessage("I moved to Porto."), AIMessage("Noted.")])
    >>> [m.content for m in history.messages]
    ['I moved to Porto.', 'Noted.']
    """

    def __init__(self, mem: GraphMem, session: str, *, user: str) -> None:
        self.mem, self.session, self.user = mem, session, user

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        """The session's messages, oldest first."""
        return [self._to_langchain(m) for m in self.mem.messages(self.session, limit=MAX_MESSAGES)]

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Append ``messages``: each becomes a ``{role, content}`` row of this session. A message
        without an id gets ``<session>:<n>``, n its place in the session, so the same turn text said
        twice stays two messages."""
        start = len(self.mem.messages(self.session, limit=MAX_MESSAGES))
        rows: list[dict[str, Any]] = []
        for n, m in enumerate(messages, start):
            role = ROLES.get(m.type)
            if role is None:
                raise ValidationError(f"a {m.type!r} message has no role in a graphmem transcript "
                                      f"(human, ai, system or tool)")
            rows.append({"role": role, "content": m.content, "id": m.id or f"{self.session}:{n}"})
        self.mem.add(rows, user=self.user, session=self.session)

    def clear(self) -> None:
        raise ValidationError("a graphmem history is append-only: forgetting what was said is an erase a person "
                              "confirms (mem.request_erase(source=…), then mem.confirm_erase), not clear()")

    def _to_langchain(self, m: SessionMessage) -> BaseMessage:
        if m.kind == "tool":
            return ToolMessage(m.text, tool_call_id=m.id, id=m.id)
        if m.speaker == "assistant":
            return AIMessage(m.text, id=m.id)
        if m.speaker == "system":
            return SystemMessage(m.text, id=m.id)
        name = None if m.speaker == self.user else m.speaker
        return HumanMessage(m.text, id=m.id, name=name)
