"""A strict scripted model: plays the model's side of a conversation turn by turn.

Each scripted turn is a reply (text, a `ModelResponse`, a `Message`, or a `ProviderError` to
raise) or a function of the request that returns one, so a test can answer from what it was
sent. Every request is recorded; a call after the script has run out fails loudly with
`UnexpectedCall` instead of inventing an answer. Text is streamed to `on_text` word by word and
the cancel signal is honoured between words, like a real streaming client.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from collections import deque
from collections.abc import Callable
from typing import Any

from app.llm.errors import ProviderError
from app.llm.messages import (
    CancelSignal,
    Message,
    ModelRequest,
    ModelResponse,
    TextSink,
    ToolCall,
)

Reply = ModelResponse | Message | str | ProviderError
Turn = Reply | Callable[[ModelRequest], Reply]
_ids = itertools.count(1)
_CHUNK = re.compile(r"\s*\S+\s*|\s+")


class UnexpectedCall(AssertionError):  # noqa: N818 - reads as a plain phrase
    """The code under test called the model more often than the script allows."""


def call(name: str, /, **arguments: Any) -> ToolCall:
    """A tool call with a fresh id, e.g. `call("ADD_WORD", folder="A", term="b")`."""
    return ToolCall(id=f"call-{next(_ids)}", name=name, arguments=arguments)


def reply(text: str = "", *calls: ToolCall, raw: Any = None) -> ModelResponse:
    """An assistant turn: some text, tool calls, or both."""
    message = Message(role="assistant", text=text, tool_calls=calls, raw=raw)
    return ModelResponse(message=message, finish_reason="tool_calls" if calls else "stop")


def _response(answer: ModelResponse | Message | str) -> ModelResponse:
    if isinstance(answer, ModelResponse):
        return answer
    if isinstance(answer, Message):
        return ModelResponse(
            message=answer, finish_reason="tool_calls" if answer.tool_calls else "stop"
        )
    return reply(answer)


class ScriptedModel:
    """A `ModelClient` whose answers are the script, in order."""

    def __init__(self, *turns: Turn, provider: str = "scripted", model: str = "script-1") -> None:
        self.provider = provider
        self.model = model
        self.requests: list[ModelRequest] = []
        self._turns: deque[Turn] = deque(turns)

    @property
    def remaining(self) -> int:
        return len(self._turns)

    def assert_done(self) -> None:
        """Fail when replies are left: the code under test stopped asking earlier than scripted."""
        if not self._turns:
            return
        left = len(self._turns)
        what = "1 scripted reply was" if left == 1 else f"{left:,} scripted replies were"
        raise AssertionError(f"{what} never asked for; the next is {self._turns[0]!r}.")

    async def list_models(self) -> list[str]:
        return [self.model]

    async def complete(
        self,
        request: ModelRequest,
        on_text: TextSink | None = None,
        cancel: CancelSignal | None = None,
    ) -> ModelResponse:
        self.requests.append(request)
        if not self._turns:
            last = request.messages[-1] if request.messages else None
            raise UnexpectedCall(
                f"Model call #{len(self.requests)} was not in the script "
                f"(last message: {last.role if last else 'none'} "
                f"{(last.text if last else '')[:80]!r})."
            )
        turn = self._turns.popleft()
        answer = turn(request) if callable(turn) else turn
        if isinstance(answer, ProviderError):
            await _stream(answer.partial, on_text, cancel)
            raise answer
        response = _response(answer)
        await _stream(response.message.text, on_text, cancel)
        return response


async def _stream(text: str, on_text: TextSink | None, cancel: CancelSignal | None) -> None:
    sent = ""
    for chunk in _CHUNK.findall(text):
        await asyncio.sleep(0)  # other tasks (a Stop button) run between chunks
        if cancel is not None and cancel.cancelled:
            raise ProviderError("stopped", "You stopped the answer.", partial=sent)
        if on_text is not None:
            on_text(chunk)
        sent += chunk
