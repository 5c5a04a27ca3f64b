"""Conversation memory: saving a turn, reopening a conversation, and what the model is sent.

Messages are stored whole (tool calls, tool results and the provider's raw parts, which Gemini
needs back unchanged). Only the last `limit` messages go to the model, cut at a user message so
an assistant's tool calls always travel with their results. The transcript for the UI shows
each turn as the user's text and the answer with its step lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, get_args

from app.agents.events import StepDone, StepStatus
from app.llm.messages import Message
from app.store import Store
from app.store.conversations import ConversationId, NewMessage
from app.tools.registry import Link
from app.tools.workspace import References

MIN_WINDOW = 2  # a user message and its answer
_STATUSES: dict[str, StepStatus] = {s: s for s in get_args(StepStatus)}


def window(messages: Sequence[Message], limit: int) -> list[Message]:
    """The newest whole exchanges that fit in `limit` messages. When the newest exchange alone
    is longer, its question and final answer stand for it."""
    limit = max(limit, MIN_WINDOW)
    starts = [i for i, m in enumerate(messages) if m.role == "user"]
    fitting = [i for i in starts if len(messages) - i <= limit]
    if fitting:
        return list(messages[fitting[0] :])
    if not starts:
        return []
    last = starts[-1]
    answers = [m for m in messages[last + 1 :] if m.role == "assistant" and m.text.strip()]
    return [messages[last], *[Message(role="assistant", text=a.text) for a in answers[-1:]]]


def load(
    store: Store, conversation_id: ConversationId, limit: int
) -> tuple[list[Message], References]:
    """The window of `limit` messages to send and the conversation's references, reading
    only the newest messages: a long conversation costs a turn no more than a short one."""
    info = store.conversations.get(conversation_id)
    recent = store.conversations.recent_messages(info.id, max(limit, MIN_WINDOW))
    return window([Message.model_validate(m.body) for m in recent], limit), References.from_json(
        info.refs
    )


def save_turn(
    store: Store,
    *,
    conversation_id: ConversationId | None,
    agent: str,
    messages: Sequence[Message],
    steps: Sequence[StepDone],
    refs: References,
    status: str = "ok",
) -> ConversationId:
    """Append one turn (its first message is the user's); the last message carries the status
    and the turn's step lines. Starts the conversation when `conversation_id` is None."""
    if conversation_id is None:
        conversation_id = store.conversations.start(messages[0].text, agent)
    stored = [
        NewMessage(role=m.role, agent=agent, body=m.model_dump(mode="json")) for m in messages
    ]
    stored[-1] = stored[-1].model_copy(
        update={"status": status, "steps": [_step_json(s) for s in steps]}
    )
    store.conversations.append(conversation_id, stored, refs.to_json())
    return conversation_id


@dataclass(frozen=True)
class Entry:
    """One line of a reopened conversation as the panel shows it."""

    role: str  # "user" or "assistant"
    agent: str
    text: str
    status: str  # "ok", "stopped" or "failed"
    steps: tuple[StepDone, ...]


def transcript(store: Store, conversation_id: ConversationId) -> list[Entry]:
    """The user's messages and the answers, each answer with its turn's steps; tool traffic
    stays out of sight."""
    entries = []
    for stored in store.conversations.messages(conversation_id):
        message = Message.model_validate(stored.body)
        if message.role == "tool" or message.tool_calls:
            continue
        steps = tuple(_step(s) for s in stored.steps)
        entries.append(Entry(message.role, stored.agent, message.text, stored.status, steps))
    return entries


def _step_json(step: StepDone) -> dict[str, Any]:
    link = None if step.link is None else step.link.model_dump()
    return {"tool": step.tool, "text": step.text, "status": step.status, "link": link}


def _step(data: dict[str, Any]) -> StepDone:
    link = data.get("link")
    return StepDone(
        tool=str(data.get("tool", "")),
        text=str(data.get("text", "")),
        status=_STATUSES.get(str(data.get("status")), "done"),
        link=Link.model_validate(link) if isinstance(link, dict) else None,
    )
