"""What a running agent turn tells the UI, in order, through `on_event`.

`Routed` first (which agent and why), then any mix of `TextDelta` (streamed answer text),
`StepDone` (one line per tool call, linking to the item) and `Navigate` (open this item), and
last exactly one of `Finished` or `Failed`. Confirmations are not events: the turn awaits the
`confirm` callback the UI passes in, and the answer becomes a `StepDone` ("declined" or "done").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from app.agents.router import Agent
from app.tools.registry import Link

StepStatus = Literal["done", "read", "failed", "declined"]


@dataclass(frozen=True)
class Routed:
    agent: Agent
    reason: str  # for the badge: "Architect: 'create', 'folder'"


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class StepDone:
    tool: str
    text: str  # "Created folder Cardiology", "Could not add word: ..."
    status: StepStatus
    link: Link | None = None
    choices: tuple[str, ...] = ()  # the paths the user is asked to choose from ("Which one?")


@dataclass(frozen=True)
class Navigate:
    link: Link


@dataclass(frozen=True)
class Finished:
    agent: Agent
    answer: str  # Markdown; render with app/text/markdown.py
    conversation_id: int | None
    undo_label: str | None  # set when the turn changed the collection (one Undo reverts it)
    limited: bool = False  # the loop hit a limit and forced this answer


@dataclass(frozen=True)
class Failed:
    agent: Agent
    kind: str  # an llm.errors.ErrorKind, or "read_only", "busy", "internal"
    message: str  # a plain sentence with a next step
    partial: str  # text streamed before the failure, kept and shown as cut off
    conversation_id: int | None
    rolled_back: bool  # the turn's changes were undone (a failed turn changes nothing)


Event = Routed | TextDelta | StepDone | Navigate | Finished | Failed
EventSink = Callable[[Event], None]
