"""What the assistant panel shows, as plain data: the conversation's turns and how each went.

A running turn is fed the agent events (app/agents/events.py) one by one; a reopened
conversation is rebuilt from its transcript. Pure Python, so the panel's logic is tested
under CPython and the browser layer only renders it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from app.agents import Entry, Event, Failed, Finished, Navigate, Routed, StepDone, TextDelta
from app.agents.router import Override
from app.domain import FolderId, WordId
from app.tools.registry import Link
from app.ui.routes import Route

TurnStatus = Literal["running", "ok", "stopped", "failed"]
AGENT_TITLES = {"architect": "Architect", "scholar": "Scholar"}


@dataclass
class TurnView:
    """One question and its answer as the panel shows it."""

    question: str
    agent: str = ""
    reason: str = ""
    text: str = ""
    steps: list[StepDone] = field(default_factory=list)
    status: TurnStatus = "running"
    error: str = ""
    waiting: str = ""  # "Retrying in 7 s…" while the client waits out a rate limit
    undo_label: str | None = None
    limited: bool = False
    saved_note: bool = False
    rolled_back: bool = False  # stopped or failed part-way: its steps were undone

    def apply(self, event: Event) -> None:
        if isinstance(event, Routed):
            self.agent, self.reason = event.agent, event.reason
        elif isinstance(event, TextDelta):
            self.text += event.text
            self.waiting = ""
        elif isinstance(event, StepDone):
            self.steps.append(event)
            self.waiting = ""
        elif isinstance(event, Finished):
            self.text, self.status = event.answer, "ok"
            self.undo_label, self.limited = event.undo_label, event.limited
            self.waiting = ""
        elif isinstance(event, Failed):
            self.text = event.partial or self.text
            self.status = "stopped" if event.kind == "stopped" else "failed"
            self.error = event.message
            self.rolled_back = event.rolled_back
            self.waiting = ""

    @property
    def can_save(self) -> bool:
        return self.agent == "scholar" and self.status == "ok" and bool(self.text.strip())

    @property
    def can_retry(self) -> bool:
        return self.status in ("failed", "stopped")


@dataclass
class PanelState:
    turns: list[TurnView] = field(default_factory=list)
    conversation_id: int | None = None
    override: Override = "auto"
    show_conversations: bool = False

    @property
    def running(self) -> bool:
        return bool(self.turns) and self.turns[-1].status == "running"

    def start(self, question: str) -> TurnView:
        turn = TurnView(question)
        self.turns.append(turn)
        return turn

    def apply(self, event: Event) -> None:
        if self.turns:
            self.turns[-1].apply(event)
        if isinstance(event, Finished | Failed) and event.conversation_id is not None:
            self.conversation_id = event.conversation_id

    def new_conversation(self) -> None:
        self.turns, self.conversation_id = [], None

    def reopen(self, conversation_id: int, entries: list[Entry]) -> None:
        self.turns, self.conversation_id = turns_of(entries), conversation_id
        self.show_conversations = False


def turns_of(entries: list[Entry]) -> list[TurnView]:
    """A stored transcript as panel turns: each user message with the answer after it."""
    turns: list[TurnView] = []
    for entry in entries:
        if entry.role == "user":
            turns.append(TurnView(entry.text, agent=entry.agent, status="ok"))
            continue
        if not turns:
            turns.append(TurnView("", agent=entry.agent))
        turn = turns[-1]
        turn.agent, turn.text = entry.agent, entry.text
        turn.steps = list(entry.steps)
        if entry.status == "stopped":
            turn.status, turn.error = "stopped", "Stopped."
        elif entry.status == "failed":
            turn.status, turn.error = "failed", "This answer was cut off."
    return turns


def link_route(link: Link) -> Route:
    """Where a step's link (or a Navigate event) takes the user."""
    if link.kind == "word":
        return Route(FolderId(link.folder_id), WordId(link.id))
    if link.kind == "folder":
        return Route(FolderId(link.id))
    return Route(FolderId(link.folder_id))


def destination(event: Navigate) -> str:
    return link_route(event.link).to_hash()


def countdown(seconds: float) -> str:
    return f"Retrying in {max(1, round(seconds))} s…"
