"""The tool loop: model -> tool calls -> results -> model, until the model answers in text.

Limits keep a confused or looping model bounded: at most `max_model_calls` requests, at most
`max_tool_only_turns` tool-calling turns in a row without a word to the user, and at most
`max_turn_result_chars` of tool results. When a limit is reached the last request forbids tools
(`tool_choice="none"`) and asks for an answer. Provider errors propagate unchanged: retrying is
the client's job, and the turn decides what a failure means for the changes made so far.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.agents import prompts
from app.agents.dispatch import Dispatcher
from app.agents.results import size
from app.llm.errors import ProviderError
from app.llm.messages import CancelSignal, Message, ModelClient, ModelRequest, TextSink
from app.tools.registry import Registry


@dataclass(frozen=True)
class Limits:
    max_model_calls: int = 10  # including the final, tool-free one
    max_tool_only_turns: int = 4
    max_result_chars: int = 8_000  # one tool result as JSON
    max_turn_result_chars: int = 60_000  # all tool results of one turn
    history_messages: int = 20  # earlier messages sent with each request
    max_output_tokens: int = 2_048


@dataclass(frozen=True)
class LoopResult:
    messages: list[Message]  # this turn's messages, the user's first
    answer: str
    limited: bool  # a limit forced the answer


STOPPED = "You stopped the answer."
# What a model that does not answer gets (issue 25: both were shown as finished answers).
WROTE_CALL = (
    "The model wrote a call of {name} as text instead of making it, so nothing was done. "
    "Retry, or choose a model that can use tools in AI settings."
)
SAID_NOTHING = "The model answered with nothing. Retry, or choose another model in AI settings."


async def run_loop(
    client: ModelClient,
    dispatcher: Dispatcher,
    *,
    system: str,
    history: Sequence[Message],
    user_text: str,
    limits: Limits,
    on_text: TextSink,
    cancel: CancelSignal | None = None,
    offered: Registry | None = None,
) -> LoopResult:
    """Run one request; the model is offered `offered` (by default every tool the dispatcher
    has), and a call of any of the dispatcher's tools runs, checked as always."""
    turn = [Message(role="user", text=user_text)]
    specs = (offered or dispatcher.tools).specs()
    calls = tool_only = result_chars = 0
    repair: tuple[Message, ...] = ()  # sent once after a call written as text; never saved
    while True:
        if cancel is not None and cancel.cancelled:
            raise ProviderError("stopped", STOPPED)
        calls += 1
        limited = (
            calls >= limits.max_model_calls
            or tool_only >= limits.max_tool_only_turns
            or result_chars >= limits.max_turn_result_chars
        )
        request = ModelRequest(
            system=f"{system}\n\n{prompts.FORCED_ANSWER}" if limited else system,
            messages=(*history, *turn, *repair),
            tools=specs,
            tool_choice="none" if limited else "auto",
            max_output_tokens=limits.max_output_tokens,
        )
        message = (await client.complete(request, on_text, cancel)).message
        imitated = None if limited else imitated_call(message.text, dispatcher.tools)
        if imitated is not None and not message.tool_calls:
            if repair:
                raise ProviderError("bad_response", WROTE_CALL.format(name=imitated))
            # Small local models often write the call instead of making it: one try to
            # repair it, as for bad arguments; the slip stays out of the saved history.
            note = prompts.IMITATED_CALL.format(name=imitated)
            repair = (Message(role="assistant", text=message.text), Message(role="user", text=note))
            continue
        if limited or not message.tool_calls:
            if not message.text.strip() and not dispatcher.steps:
                raise ProviderError("bad_response", SAID_NOTHING)
            # Calls made despite "none" are dropped with the raw parts that carry them.
            final = Message(role="assistant", text=message.text) if message.tool_calls else message
            turn.append(final)
            return LoopResult(turn, message.text, limited)
        turn.append(message)
        repair = ()
        results = await dispatcher.run(message.tool_calls)
        turn.append(Message(role="tool", tool_results=tuple(results)))
        result_chars += sum(size(r.content) for r in results)
        tool_only = 0 if message.text.strip() else tool_only + 1


# A tool call written into the answer: "functions.NAME: {…}", "NAME({…})", or a JSON object
# naming the tool ({"name": "NAME", "arguments": …}), alone in the message. A code fence's
# language ends at a space or line break, so it is never read as the tool's name (with `\w*`
# there, a long reply was tried once per way of splitting its first word).
_FENCE = r"(?:```(?:[A-Za-z]*\s)?\s*)?"
_WRITTEN_CALL = re.compile(
    rf"^\s*{_FENCE}(?:functions\.)?(?P<bare>[A-Z][A-Z0-9_]{{2,}})\s*[:(]\s*\{{"
    rf'|^\s*{_FENCE}\{{\s*"name"\s*:\s*"(?P<named>[A-Z][A-Z0-9_]{{2,}})"',
)


def imitated_call(text: str, tools: Registry) -> str | None:
    """The name of the offered tool that `text` writes a call of, if that is what it is."""
    found = _WRITTEN_CALL.match(text)
    name = found and (found.group("bare") or found.group("named"))
    return name if name and name in tools else None
