"""Helpers for the agent tests: a scripted dialog, an event recorder and a one-line turn."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from app.agents.events import Event, Failed, Finished, StepDone, TextDelta
from app.agents.safety import Confirmation
from app.agents.turn import TurnResult, run_turn
from app.llm.messages import ModelRequest, ToolResult
from app.store import Store
from tests.llm.scripted import ScriptedModel


class Dialog:
    """The app's confirmation dialog, answering from a script; asking more is a failure."""

    def __init__(self, *answers: bool) -> None:
        self.answers = list(answers)
        self.asked: list[Confirmation] = []

    async def __call__(self, confirmation: Confirmation) -> bool:
        self.asked.append(confirmation)
        assert self.answers, f"Unexpected confirmation: {confirmation.changes}"
        return self.answers.pop(0)


class Events(list[Event]):
    def steps(self) -> list[str]:
        return [e.text for e in self if isinstance(e, StepDone)]

    def text(self) -> str:
        return "".join(e.text for e in self if isinstance(e, TextDelta))

    def last(self) -> Finished | Failed:
        end = self[-1]
        assert isinstance(end, Finished | Failed)
        return end


def turn(
    store: Store,
    model: ScriptedModel,
    text: str,
    dialog: Dialog | None = None,
    **options: Any,
) -> tuple[TurnResult, Events]:
    events = Events()
    result = asyncio.run(
        run_turn(store, model, text, confirm=dialog or Dialog(), on_event=events.append, **options)
    )
    return result, events


def last_results(request: ModelRequest) -> tuple[ToolResult, ...]:
    """The tool results the model was sent last."""
    return request.messages[-1].tool_results


def sent_text(request: ModelRequest) -> str:
    """Everything in a request as one string, for checking what reached the model."""
    return request.system + json.dumps([m.model_dump(mode="json") for m in request.messages])
