"""The AI agents: the keyword router, the Architect and the Scholar, and the tool loop.

What the assistant panel needs, all plain Python over the `Store` and a `ModelClient`:
- `run_turn(store, client, text, confirm=..., on_event=...)` answers one request; `on_event`
  receives `Routed`, `TextDelta`, `StepDone`, `Navigate` and finally `Finished` or `Failed`
  (app/agents/events.py); `confirm(Confirmation)` is awaited before destructive changes.
- `route(text, override)` for the badge before sending; `View` says what is on screen.
- `transcript(store, conversation_id)` reopens a conversation; `store.conversations` lists and
  deletes them and summarises the usage log.
- `save_answer(store, folder_id, answer, question)` is the "Save to notes" button.
"""

from app.agents.context import View
from app.agents.events import Event, Failed, Finished, Navigate, Routed, StepDone, TextDelta
from app.agents.loop import Limits
from app.agents.memory import Entry, transcript
from app.agents.router import route
from app.agents.safety import Confirmation
from app.agents.scholar import save_answer
from app.agents.turn import TurnResult, run_turn

__all__ = [
    "Confirmation",
    "Entry",
    "Event",
    "Failed",
    "Finished",
    "Limits",
    "Navigate",
    "Routed",
    "StepDone",
    "TextDelta",
    "TurnResult",
    "View",
    "route",
    "run_turn",
    "save_answer",
    "transcript",
]
