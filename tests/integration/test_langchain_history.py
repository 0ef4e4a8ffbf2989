"""LangChain's chat history interface kept in graphmem, with the real langchain-core package:
messages read back in order, roles kept, a human's words drawing facts, an AI's never a person's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from graphmem import ValidationError

EXE = str(Path(sys.executable).parent / "graphmem")


def test_a_chain_with_history_keeps_its_turns_in_graphmem(store):
    from langchain_core.language_models.fake_chat_models import FakeListChatModel
    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
    from langchain_core.runnables.history import RunnableWithMessageHistory

    from graphmem.interfaces.langchain import GraphMemChatMessageHistory

    prompt = ChatPromptTemplate.from_messages([MessagesPlaceholder("history"), ("human", "{input}")])
    model = FakeListChatModel(responses=["Noted, you're vegetarian.", "Porto, since you moved."])
    chain = RunnableWithMessageHistory(prompt | model, lambda session_id: GraphMemChatMessageHistory(
        store, session_id, user="lin"), input_messages_key="input", history_messages_key="history")
    config = {"configurable": {"session_id": "s1"}}
    chain.invoke({"input": "I'm vegetarian."}, config=config)
    chain.invoke({"input": "I moved to Porto."}, config=config)

    history = GraphMemChatMessageHistory(store, "s1", user="lin").messages
    assert [type(m) for m in history] == [HumanMessage, AIMessage, HumanMessage, AIMessage]
    assert [m.content for m in history] == ["I'm vegetarian.", "Noted, you're vegetarian.", "I moved to Porto.",
                                            "Porto, since you moved."]
    # the person's words are their statements; the model's echo is no fact about anyone
    assert store.as_of("lin", "diet").value == "vegetarian"
    assert store.as_of("lin", "home_city").value == "Porto"
    assert not store.assertions("assistant", "diet")
    assert GraphMemChatMessageHistory(store, "other", user="lin").messages == []


def test_the_same_words_twice_stay_two_messages_and_clear_is_refused(store):
    from langchain_core.messages import HumanMessage

    from graphmem.interfaces.langchain import GraphMemChatMessageHistory

    h = GraphMemChatMessageHistory(store, "s2", user="lin")
    h.add_message(HumanMessage("ok"))
    h.add_message(HumanMessage("ok"))
    assert [m.content for m in h.messages] == ["ok", "ok"]
    with pytest.raises(ValidationError, match="append-only"):
        h.clear()
    assert len(h.messages) == 2


def test_messages_reads_a_session_in_order_and_the_cli_mirrors_it(store, cli_env):
    store.add([{"role": "user", "content": "first", "created_at": "2026-01-01T10:00:00Z"},
               {"role": "assistant", "content": "second", "created_at": "2026-01-01T10:01:00Z"},
               {"role": "tool", "content": "third", "created_at": "2026-01-01T10:02:00Z"}], user="lin", session="s3")
    got = store.messages("s3")
    assert [(m.speaker, m.text, m.kind) for m in got] == [("lin", "first", "message"), ("assistant", "second", "message"),
                                                          ("tool", "third", "tool")]
    assert [m.text for m in store.messages("s3", limit=1)] == ["first"]
    with pytest.raises(ValidationError):
        store.messages("s3", limit=0)
    out = subprocess.run([EXE, "messages", "s3", "-t", store.tenant, "--json"], capture_output=True, text=True,
                         env=cli_env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert '"first"' in out.stdout and '"third"' in out.stdout
