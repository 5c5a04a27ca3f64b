"""The window of history sent to the model never splits a tool call from its results."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.agents.memory import load, save_turn, window
from app.llm.messages import Message, ToolCall, ToolResult
from app.store import Store
from app.store.db import Database
from app.tools.workspace import References


def _exchange(n: int, tool_rounds: int) -> list[Message]:
    messages = [Message(role="user", text=f"q{n}")]
    for r in range(tool_rounds):
        call = ToolCall(id=f"{n}-{r}", name="GET_WORD", arguments={})
        messages.append(Message(role="assistant", tool_calls=(call,)))
        result = ToolResult(call_id=call.id, name="GET_WORD", content={"ok": True})
        messages.append(Message(role="tool", tool_results=(result,)))
    messages.append(Message(role="assistant", text=f"a{n}"))
    return messages


def _calls_answered(messages: list[Message]) -> bool:
    open_calls: set[str] = set()
    for message in messages:
        for result in message.tool_results:
            if result.call_id not in open_calls:
                return False
            open_calls.discard(result.call_id)
        open_calls |= {c.id for c in message.tool_calls}
    return not open_calls


def test_whole_exchanges_that_fit() -> None:
    history = _exchange(1, 0) + _exchange(2, 2) + _exchange(3, 0)
    assert [m.text for m in window(history, 4)] == ["q3", "a3"]
    assert len(window(history, 8)) == 8
    assert window(history, 100) == history
    assert window([], 10) == []


def test_an_exchange_longer_than_the_window_keeps_its_question_and_answer() -> None:
    history = _exchange(1, 0) + _exchange(2, 5)
    assert window(history, 4) == [
        Message(role="user", text="q2"),
        Message(role="assistant", text="a2"),
    ]


@given(st.lists(st.integers(0, 4), min_size=1, max_size=8), st.integers(0, 30))
def test_the_window_is_always_a_valid_conversation(rounds: list[int], limit: int) -> None:
    history = [m for n, r in enumerate(rounds) for m in _exchange(n, r)]
    kept = window(history, limit)
    assert kept[0].role == "user"
    assert _calls_answered(kept)
    assert len(kept) <= max(limit, 2)
    assert kept[-1].text == f"a{len(rounds) - 1}"


@given(st.lists(st.integers(0, 4), max_size=8), st.integers(0, 30))
def test_the_window_loaded_from_the_store_is_the_window_of_everything(
    rounds: list[int], limit: int
) -> None:
    store = Store(Database.open())
    refs = References()
    conversation = None
    for n, r in enumerate(rounds):
        conversation = save_turn(
            store,
            conversation_id=conversation,
            agent="architect",
            messages=_exchange(n, r),
            steps=(),
            refs=refs,
        )
    history = [m for n, r in enumerate(rounds) for m in _exchange(n, r)]
    if conversation is not None:
        assert load(store, conversation, limit)[0] == window(history, limit)
