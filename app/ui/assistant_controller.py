"""What the assistant does with a request, typed or spoken: guards, routing, the turn, Stop,
Retry, confirmations and the panel's conversation actions.

Pure Python over a small `AssistantHost` (the page: is it online, is a provider set up, is
the collection read-only, the model client, and what to redraw), so the same rules hold for
every way a request arrives and are tested under CPython with a scripted model. A request is
routed once: the guard that keeps the Architect out of a read-only tab and the turn use the
same choice. A confirmation waits for `answer(...)`, from the dialog's buttons or a spoken
"yes"; nothing but an explicit yes confirms.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Protocol

from app.agents import (
    Confirmation,
    Event,
    Finished,
    Navigate,
    StepDone,
    View,
    route,
    run_turn,
    save_answer,
    transcript,
)
from app.agents.router import Override, Route
from app.agents.scholar import SCHOLAR
from app.agents.turn import run_agent
from app.domain import FolderId, LexicalError
from app.drill.start import NotFound, choose, wanted
from app.llm.cancel import CancelToken
from app.llm.errors import ProviderError
from app.llm.messages import ModelClient
from app.llm.retry import OnWait
from app.store import Store
from app.store.conversations import ConversationId
from app.ui.assistant_state import PanelState, countdown, destination
from app.ui.assistant_view import OFFLINE, SAVE_NEEDS_FOLDER

RECENT_ACTIONS = 5
STILL_ANSWERING = "The assistant is still answering: wait for it, or press Stop."
NEEDS_PROVIDER = (
    "Asking the Scholar needs an AI provider: choose one and add your key in AI settings, "
    "then press the button again."
)
WAIT_FOR_ASSISTANT = "Wait for the assistant to finish."
EXPLAIN_OFFLINE = "Explanations need the network, and you are offline. The session goes on."
EXPLAIN_NEEDS_PROVIDER = (
    "Explanations need an AI provider: add one in AI settings. The session goes on."
)


class AssistantHost(Protocol):
    """The page, as far as the assistant needs it."""

    @property
    def store(self) -> Store: ...

    @property
    def online(self) -> bool: ...

    @property
    def configured(self) -> bool: ...

    @property
    def read_only(self) -> str | None:
        """Why this tab cannot change the collection, or None when it can."""
        ...

    def client(self, on_wait: OnWait) -> ModelClient:
        """The model client for the saved settings; raises ProviderError without a key."""
        ...

    def view(self) -> View: ...

    def open_folder(self) -> FolderId | None: ...

    def show_confirmation(self, confirmation: Confirmation) -> None: ...

    def hide_confirmation(self) -> None: ...

    def open_settings(self) -> None: ...

    def toast(self, message: str, *, undo: bool = False) -> None: ...

    def go(self, location: str) -> None:
        """Open a place in the app (a `#/…` hash)."""
        ...

    def study_hands_free(self, folder: FolderId) -> None:
        """Open a hands-free study session of `folder`."""
        ...

    def collection_changed(self) -> None: ...

    def render_panel(self) -> None: ...

    def render_turn(self, *, now: bool) -> None:
        """Redraw the running turn; `now` for its last redraw, otherwise once per frame."""
        ...


@dataclass(frozen=True)
class Refusal:
    """Why a request was not sent; the question stays where the user typed it."""

    message: str
    settings: bool = False  # open AI settings: no provider is set up yet


@dataclass(frozen=True)
class Started:
    """The request was to study a folder hands-free, and its session is open: nothing to send."""


@dataclass(frozen=True)
class Request:
    text: str
    routed: Route
    spoken: bool = False


Sleep = Callable[[float], Awaitable[None]]
# Told each event of a turn, then None when the turn is over (the voice speaks the answer).
TurnObserver = Callable[[Request, Event | None], None]


class AssistantController:
    def __init__(self, host: AssistantHost, *, sleep: Sleep = asyncio.sleep) -> None:
        self.host = host
        self.state = PanelState()
        self.cancel: CancelToken | None = None
        self._sleep = sleep
        self._confirming: asyncio.Future[bool] | None = None
        self._countdown: asyncio.Task[None] | None = None
        self._recent: deque[str] = deque(maxlen=RECENT_ACTIONS)
        self._watched: Store | None = None
        self.request: Request | None = None  # the one running
        self.observers: list[TurnObserver] = []

    @property
    def confirming(self) -> bool:
        return self._confirming is not None and not self._confirming.done()

    # --- a request ----------------------------------------------------------------------------

    def prepare(self, text: str, *, spoken: bool = False) -> Request | Refusal | Started | None:
        """Route `text` and check it can be sent now: a Request to `run`, a Refusal to show,
        or None for nothing to send (an empty box). Asking to study a folder hands-free needs
        no model: its session is opened here (Started)."""
        if not text.strip():
            return None
        studying = self._study(text)
        if studying is not None:
            return studying
        if self.state.running:
            return Refusal(STILL_ANSWERING)
        if not self.host.online:
            return Refusal(OFFLINE)
        if not self.host.configured:
            return Refusal("", settings=True)
        routed = route(text, self.state.override)
        read_only = self.host.read_only
        if routed.agent == "architect" and read_only:
            return Refusal(read_only)
        return Request(text, routed, spoken)

    def _study(self, text: str) -> Refusal | Started | None:
        """A request to study a folder hands-free, done; None for any other request."""
        name = wanted(text)
        if name is None:
            return None
        store = self.host.store
        found = choose(
            name, store.folders(), lambda f: " › ".join(x.name for x in store.folder_path(f))
        )
        if isinstance(found, NotFound):
            return Refusal(found.message)
        self.host.study_hands_free(found.folder_id)
        return Started()

    def refuse(self, refusal: Refusal) -> None:
        if refusal.settings:
            self.host.open_settings()
        if refusal.message:
            self.host.toast(refusal.message)

    async def ask(self, text: str, *, spoken: bool = False) -> None:
        prepared = self.prepare(text, spoken=spoken)
        if isinstance(prepared, Refusal):
            self.refuse(prepared)
        elif isinstance(prepared, Request):
            await self.run(prepared)

    async def ask_scholar(self, text: str) -> None:
        """A question the app asks for the user (about the words just missed)."""
        if not self.host.configured:
            self.refuse(Refusal(NEEDS_PROVIDER, settings=True))
            return
        self.state.override = "scholar"
        await self.ask(text)

    async def explain(self, question: str) -> str:
        """The Scholar's answer to `question`, outside the conversations (the hands-free drill
        asks what a word means, and each would otherwise fill the list with one of its own);
        raises LexicalError with a sentence when there is none."""
        host = self.host
        if not host.online:
            raise LexicalError(EXPLAIN_OFFLINE)
        if not host.configured:
            raise LexicalError(EXPLAIN_NEEDS_PROVIDER)
        try:
            # With the page's view: the open folder, and the local day of past study sessions.
            result = await run_agent(
                SCHOLAR,
                host.store,
                host.client(self._on_wait),
                question,
                confirm=_decline,
                view=host.view(),
                kept=False,
            )
        except ProviderError as exc:
            raise LexicalError(exc.message) from exc
        if not result.ok:
            failed = result.failure.message if result.failure else ""
            raise LexicalError(failed or "The Scholar could not answer this time.")
        return str(result.answer)

    async def run(self, request: Request) -> None:
        host = self.host
        self._watch_recent()
        self.state.start(request.text)
        # Drawn as soon as the request is on its way: the model's first words are what the
        # user waits for, so the request goes out before the panel is rebuilt.
        asyncio.get_running_loop().call_soon(host.render_panel)
        self.cancel = CancelToken()
        self.request = request
        try:
            await run_turn(
                host.store,
                host.client(self._on_wait),
                request.text,
                confirm=self.confirm,
                on_event=self._on_event,
                override=self.state.override,
                conversation_id=_conversation(self.state.conversation_id),
                view=self._view(),
                cancel=self.cancel,
                routed=request.routed,
                spoken=request.spoken,
            )
        except ProviderError as exc:  # no key yet: the message says where to paste it
            turn = self.state.turns[-1]
            turn.status, turn.error = "failed", exc.message
        finally:
            self.cancel, self.request = None, None
            self._stop_countdown()
            for observer in self.observers:  # first: what they log shows in the redraw
                observer(request, None)
            host.render_panel()
            host.collection_changed()

    def _view(self) -> View:
        return replace(self.host.view(), recent_actions=tuple(self._recent))

    def _watch_recent(self) -> None:
        """Remember the labels of the user's recent edits, for the context of each request."""
        store = self.host.store  # a follower tab that takes over has a new store
        if self._watched is not store:
            self._watched = store
            store.subscribe(lambda changeset: self._recent.append(changeset.label))

    def _on_event(self, event: Event) -> None:
        self.state.apply(event)
        if self.request is not None:
            for observer in self.observers:
                observer(self.request, event)
        if isinstance(event, Navigate):
            self.host.go(destination(event))
        elif isinstance(event, StepDone) and event.status == "done":
            self.host.collection_changed()
        self.host.render_turn(now=isinstance(event, Finished))

    def _on_wait(self, seconds: float, _next_try: int) -> None:
        self._stop_countdown()
        self._countdown = asyncio.ensure_future(self._count_down(seconds))

    async def _count_down(self, seconds: float) -> None:
        turn = self.state.turns[-1]
        while seconds > 0 and turn.status == "running":
            turn.waiting = countdown(seconds)
            self.host.render_turn(now=True)
            step = min(1.0, seconds)
            await self._sleep(step)
            seconds -= step
        turn.waiting = ""

    def _stop_countdown(self) -> None:
        if self._countdown is not None:
            self._countdown.cancel()
            self._countdown = None

    def stop(self) -> None:
        if self.cancel is not None:
            self.cancel.cancel()
        self.answer(False)

    async def retry(self, index: int) -> None:
        if 0 <= index < len(self.state.turns) and not self.state.running:
            await self.ask(self.state.turns[index].question)

    def choose_agent(self, override: Override) -> None:
        self.state.override = override

    # --- confirmation -------------------------------------------------------------------------

    async def confirm(self, confirmation: Confirmation) -> bool:
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._confirming = future
        self.host.show_confirmation(confirmation)
        try:
            return await future
        finally:
            self._confirming = None
            self.host.hide_confirmation()

    def answer(self, yes: bool) -> None:
        """The user's answer to the open confirmation, if one is open."""
        if self._confirming is not None and not self._confirming.done():
            self._confirming.set_result(yes)

    # --- conversations and notes --------------------------------------------------------------

    def new_conversation(self) -> bool:
        if self.state.running:
            return False
        self.state.new_conversation()
        self.host.render_panel()
        return True

    def toggle_conversations(self) -> None:
        self.state.show_conversations = not self.state.show_conversations
        self.host.render_panel()

    def reopen(self, conversation_id: int) -> bool:
        if self.state.running:
            return False
        try:
            entries = transcript(self.host.store, ConversationId(conversation_id))
        except LexicalError as exc:
            self.host.toast(exc.message)
            return False
        self.state.reopen(conversation_id, entries)
        self.host.render_panel()
        return True

    def delete_conversation(self, conversation_id: int) -> None:
        try:
            self.host.store.conversations.delete(ConversationId(conversation_id))
        except LexicalError as exc:
            self.host.toast(exc.message)
            return
        if self.state.conversation_id == conversation_id:
            self.state.new_conversation()
        self.host.render_panel()
        self.host.toast("Deleted the conversation.")

    def save_note(self, index: int) -> None:
        if not 0 <= index < len(self.state.turns):
            return
        turn, host = self.state.turns[index], self.host
        folder = host.open_folder()
        if folder is None:
            host.toast(SAVE_NEEDS_FOLDER)
            return
        if host.read_only or host.store.busy:
            host.toast(host.read_only or WAIT_FOR_ASSISTANT)
            return
        try:
            note = save_answer(host.store, folder, turn.text, turn.question)
        except LexicalError as exc:
            host.toast(exc.message)
            return
        turn.saved_note = True
        host.render_panel()
        host.collection_changed()
        host.toast(f"Saved note {note.title}. Ctrl+Z undoes it.", undo=True)


async def _decline(_confirmation: Confirmation) -> bool:
    return False  # the Scholar only reads; nothing it asks to confirm is done


def _conversation(value: int | None) -> ConversationId | None:
    return None if value is None else ConversationId(value)
