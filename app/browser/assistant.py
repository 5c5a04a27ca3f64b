"""The assistant panel in the page: send a request, stream the answer, Stop, Retry, confirm.

It wires the panel (app/ui/assistant_view.py, state in app/ui/assistant_state.py) to
`app.agents.run_turn` over the fetch transport. While a turn runs, streamed text re-renders
only that turn; steps redraw the folder tree and view so new items appear as they are made;
a `Navigate` opens the item. Destructive changes wait for the app's own confirmation dialog.
The controller holds the user's own edits and Undo while an Architect turn is open (the
store is busy), and one Undo reverts the whole turn afterwards.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import js

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
from app.browser.ai_settings import SettingsDialog
from app.browser.commands import plain
from app.browser.dom import by_id, data, found, replace_children, to_dom
from app.browser.settings_store import LocalCounter, SettingsStore
from app.browser.study import local_utc_offset
from app.domain import FolderId, LexicalError, WordId
from app.llm.cancel import CancelToken
from app.llm.errors import ProviderError
from app.llm.settings import make_client
from app.store import Store
from app.store.conversations import ConversationId
from app.study.summary import scholar_prompt
from app.ui.assistant_state import PanelState, countdown, destination
from app.ui.assistant_view import (
    OFFLINE,
    SAVE_NEEDS_FOLDER,
    badge_text,
    confirm_dialog,
    render_panel,
    render_turn,
)

if TYPE_CHECKING:
    from app.browser.app import Page

RECENT_ACTIONS = 5
RENDER_DELAY_S = 0.03  # coalesce streamed chunks into one redraw per frame or so


NEEDS_PROVIDER = (
    "Asking the Scholar needs an AI provider: choose one and add your key in AI settings, "
    "then press the button again."
)


class Assistant:
    def __init__(self, page: Page) -> None:
        self.page = page
        self.panel = by_id("assistant")
        self.state = PanelState()
        self.settings = SettingsStore()
        self.dialog = SettingsDialog(page, self.settings, self.render)
        self.cancel: CancelToken | None = None
        self._confirming: asyncio.Future[bool] | None = None
        self._render_pending = False
        self._countdown: asyncio.Task[None] | None = None
        self._recent: deque[str] = deque(maxlen=RECENT_ACTIONS)
        self._watched: Store | None = None

    @property
    def store(self) -> Store:
        return self.page.controller.store  # a follower tab that takes over gets a new store

    # --- wiring -------------------------------------------------------------------------------

    def start(self) -> None:
        page, doc = self.page, js.document
        page.commands["open-assistant"] = plain(self.open)
        page.commands["ai-settings"] = plain(self.dialog.open)
        page.commands["study-ask-scholar"] = plain(self.ask_about_missed)
        page.listen(doc, "click", self._on_click)
        page.listen(doc, "submit", self._on_submit)
        page.listen(doc, "change", self._on_change)
        page.listen(doc, "input", self._on_input)
        page.listen(self.panel, "keydown", self._on_keydown)
        page.listen(page.dialog, "close", lambda _e: self._answer(False))
        page.listen(js.window, "online", lambda _e: self._show_notice())
        page.listen(js.window, "offline", lambda _e: self._show_notice())
        for element_id in ("assistant-button", "ai-settings-button"):
            by_id(element_id).disabled = False

    # --- showing ------------------------------------------------------------------------------

    def open(self) -> None:
        if self.panel.hidden:
            self.panel.hidden = False
            by_id("assistant-button").setAttribute("aria-expanded", "true")
            self.render()
        by_id("ai-input").focus()

    def close(self) -> None:
        self.panel.hidden = True
        button = by_id("assistant-button")
        button.setAttribute("aria-expanded", "false")
        button.focus()

    @property
    def online(self) -> bool:
        return bool(js.navigator.onLine)

    def render(self) -> None:
        if self.panel.hidden:
            return
        box = by_id("ai-input")
        draft = str(box.value) if found(box) else ""
        focused = found(box) and js.document.activeElement == box
        conversations = self.store.conversations.recent() if self.state.show_conversations else ()
        replace_children(
            self.panel,
            *render_panel(
                self.state,
                configured=self.settings.configured,
                online=self.online,
                draft=draft,
                conversations=conversations,
                usage=self.store.conversations.usage_summary(),
            ),
        )
        if focused:
            by_id("ai-input").focus()

    def _render_turn(self) -> None:
        self._render_pending = False
        index = len(self.state.turns) - 1
        target = by_id(f"ai-turn-{index}")
        if index >= 0 and found(target):
            target.replaceWith(to_dom(render_turn(self.state.turns[index], index)))

    def _schedule_turn_render(self) -> None:
        if not self._render_pending:
            self._render_pending = True
            asyncio.get_running_loop().call_later(RENDER_DELAY_S, self._render_turn)

    def _show_notice(self) -> None:
        self.render()  # the notice, and Send enabled or not

    # --- events -------------------------------------------------------------------------------

    def _on_click(self, event: Any) -> None:
        target = (
            event.target.closest("[data-ai-action]") if hasattr(event.target, "closest") else None
        )
        if not found(target) or target.tagName == "FORM":
            return
        event.preventDefault()
        action = str(data(target, "ai-action"))
        turn = data(target, "turn")
        item = data(target, "id")
        handlers: dict[str, Callable[[], None]] = {
            "open-settings": self.dialog.open,
            "close-settings": self.page.closer.request,
            "test-key": lambda: self.page.spawn(self.dialog.test()),
            "close-panel": self.close,
            "new-conversation": self._new_conversation,
            "toggle-conversations": self._toggle_conversations,
            "reopen": lambda: self._reopen(int(item or 0)),
            "delete-conversation": lambda: self._delete_conversation(int(item or 0)),
            "stop": self.stop,
            "retry": lambda: self._retry(int(turn or 0)),
            "save-note": lambda: self._save_note(int(turn or 0)),
            "accept": lambda: self._answer(True),
            "decline": lambda: self._answer(False),
        }
        handler = handlers.get(action)
        if handler is not None:
            handler()

    def _on_submit(self, event: Any) -> None:
        action = data(event.target, "ai-action")
        if action is None:
            return
        event.preventDefault()
        if action == "save-settings":
            self.dialog.save()
        elif action == "send":
            self.send_draft()

    def _on_change(self, event: Any) -> None:
        target = event.target
        kind = data(target, "ai-change") if hasattr(target, "getAttribute") else None
        if kind == "provider":
            self.dialog.switch_provider()
        elif kind == "override":
            self.state.override = str(target.value)  # type: ignore[assignment]
            self._update_badge()

    def _on_input(self, event: Any) -> None:
        target = event.target
        if hasattr(target, "getAttribute") and data(target, "ai-input") == "text":
            self._update_badge()

    def _update_badge(self) -> None:
        badge = by_id("ai-badge")
        if found(badge):
            badge.textContent = badge_text(str(by_id("ai-input").value), self.state.override)

    def _on_keydown(self, event: Any) -> None:
        target = event.target
        if str(event.key) == "Escape" and not self.page.dialog.open:
            event.preventDefault()
            self.close()
            return
        if getattr(target, "id", "") != "ai-input" or str(event.key) != "Enter":
            return
        if event.shiftKey or event.isComposing:
            return  # Shift+Enter is a new line
        event.preventDefault()
        self.send_draft()

    # --- a turn -------------------------------------------------------------------------------

    def send_draft(self) -> None:
        box = by_id("ai-input")
        text = str(box.value)
        # Checked before the box is emptied: a question typed offline or before any key is
        # set up stays in the box, to send once that is sorted.
        if not text.strip() or self.state.running or not self._can_ask():
            return
        box.value = ""
        self.page.spawn(self.ask(text))

    def _can_ask(self) -> bool:
        """Online with a provider set up; otherwise say what is missing and return False."""
        if not self.online:
            self.page.show_toast(OFFLINE)
            return False
        if not self.settings.configured:
            self.dialog.open()
            return False
        return True

    def ask_about_missed(self) -> None:
        """From a study summary: the Scholar explains the words just missed (it only reads)."""
        study = self.page.controller.study
        summary = study.session.summary if study.session is not None else None
        if summary is None or not summary.missed:
            return
        if not self.settings.configured:
            self.page.show_toast(NEEDS_PROVIDER)
            self.dialog.open()
            return
        self.open()
        self.state.override = "scholar"
        self.page.spawn(self.ask(scholar_prompt(summary.missed, study.title())))

    async def ask(self, text: str) -> None:
        if not self._can_ask():
            return
        chosen = route(text, self.state.override)
        if chosen.agent == "architect" and self.page.controller.read_only:
            self.page.show_toast(self.page.controller.read_only)
            return
        self._watch_recent()
        self.state.start(text)
        self.render()
        self.cancel = CancelToken()
        try:
            client = make_client(
                self.settings.settings,
                self.dialog.transport,
                counter=LocalCounter(),
                on_wait=self._on_wait,
            )
            await run_turn(
                self.store,
                client,
                text,
                confirm=self._confirm,
                on_event=self._on_event,
                override=self.state.override,
                conversation_id=_conversation(self.state.conversation_id),
                view=self._view(),
                cancel=self.cancel,
            )
        except ProviderError as exc:  # no key yet: make_client says where to paste it
            turn = self.state.turns[-1]
            turn.status, turn.error = "failed", exc.message
        finally:
            self.cancel = None
            self._stop_countdown()
            self.render()
            self.page.apply(self.page.controller.refresh())

    def _view(self) -> View:
        where = self.page.controller.state.route
        return View(
            open_folder=FolderId(where.folder_id) if where.folder_id is not None else None,
            selected_word=WordId(where.word_id) if where.word_id is not None else None,
            recent_actions=tuple(self._recent),
            utc_offset_minutes=local_utc_offset(),
        )

    def _watch_recent(self) -> None:
        """Remember the labels of the user's recent edits, for the context of each request."""
        if self._watched is not self.store:
            self._watched = self.store
            self.store.subscribe(lambda changeset: self._recent.append(changeset.label))

    def _on_event(self, event: Event) -> None:
        self.state.apply(event)
        if isinstance(event, Navigate):
            js.location.hash = destination(event)
        elif isinstance(event, StepDone) and event.status == "done":
            self.page.apply(self.page.controller.refresh())
        if isinstance(event, Finished):
            self._render_turn()
        else:
            self._schedule_turn_render()

    def _on_wait(self, seconds: float, _next_try: int) -> None:
        self._stop_countdown()
        self._countdown = asyncio.ensure_future(self._count_down(seconds))

    async def _count_down(self, seconds: float) -> None:
        turn = self.state.turns[-1]
        while seconds > 0 and turn.status == "running":
            turn.waiting = countdown(seconds)
            self._render_turn()
            step = min(1.0, seconds)
            await asyncio.sleep(step)
            seconds -= step
        turn.waiting = ""

    def _stop_countdown(self) -> None:
        if self._countdown is not None:
            self._countdown.cancel()
            self._countdown = None

    def stop(self) -> None:
        if self.cancel is not None:
            self.cancel.cancel()
        self._answer(False)

    def _retry(self, index: int) -> None:
        if 0 <= index < len(self.state.turns) and not self.state.running:
            self.page.spawn(self.ask(self.state.turns[index].question))

    # --- confirmation -------------------------------------------------------------------------

    async def _confirm(self, confirmation: Confirmation) -> bool:
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._confirming = future
        dialog = self.page.dialog
        replace_children(dialog, confirm_dialog(confirmation))
        if not dialog.open:
            dialog.showModal()
        dialog.querySelector('[data-ai-action="decline"]').focus()  # the safe default
        try:
            return await future
        finally:
            self._confirming = None
            if dialog.open:
                dialog.close()

    def _answer(self, yes: bool) -> None:
        if self._confirming is not None and not self._confirming.done():
            self._confirming.set_result(yes)

    # --- conversations and notes --------------------------------------------------------------

    def _new_conversation(self) -> None:
        if not self.state.running:
            self.state.new_conversation()
            self.render()
            by_id("ai-input").focus()

    def _toggle_conversations(self) -> None:
        self.state.show_conversations = not self.state.show_conversations
        self.render()

    def _reopen(self, conversation_id: int) -> None:
        if self.state.running:
            return
        try:
            entries = transcript(self.store, ConversationId(conversation_id))
        except LexicalError as exc:
            self.page.show_toast(exc.message)
            return
        self.state.reopen(conversation_id, entries)
        self.render()
        by_id("ai-input").focus()

    def _delete_conversation(self, conversation_id: int) -> None:
        try:
            self.store.conversations.delete(ConversationId(conversation_id))
        except LexicalError as exc:
            self.page.show_toast(exc.message)
            return
        if self.state.conversation_id == conversation_id:
            self.state.new_conversation()
        self.render()
        self.page.show_toast("Deleted the conversation.")

    def _save_note(self, index: int) -> None:
        turn = self.state.turns[index]
        folder = self.page.controller.state.route.folder_id
        if folder is None:
            self.page.show_toast(SAVE_NEEDS_FOLDER)
            return
        if self.page.controller.read_only or self.store.busy:
            self.page.show_toast(
                self.page.controller.read_only or "Wait for the assistant to finish."
            )
            return
        try:
            note = save_answer(self.store, FolderId(folder), turn.text, turn.question)
        except LexicalError as exc:
            self.page.show_toast(exc.message)
            return
        turn.saved_note = True
        self.render()
        self.page.apply(self.page.controller.refresh())
        self.page.show_toast(f"Saved note {note.title}. Ctrl+Z undoes it.", undo=True)


def _conversation(value: int | None) -> ConversationId | None:
    return None if value is None else ConversationId(value)
