"""The assistant panel in the page: the DOM side of app/ui/assistant_controller.py.

The controller decides (guards, routing, the turn, Stop, Retry, confirmations); this module
is its `AssistantHost`: it registers the panel's `ai-…` actions as page commands, renders the
panel (app/ui/assistant_view.py) and the running turn at most once per frame or so, shows the
confirmation dialog, and builds the model client over the fetch transport.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol, get_args

import js

from app.agents import Confirmation, View
from app.agents.router import Override
from app.browser.ai_settings import SettingsDialog, SettingsPage
from app.browser.commands import Command, plain
from app.browser.dom import by_id, found, replace_children, to_dom
from app.browser.page_parts import Applies, Runs
from app.browser.settings_store import LocalCounter, SettingsStore
from app.browser.study import local_utc_offset
from app.browser.voice import VoiceGlue, VoicePage
from app.domain import FolderId, WordId
from app.llm.audio import AudioOptions, AudioUsage
from app.llm.messages import ModelClient
from app.llm.retry import OnWait
from app.llm.settings import make_client
from app.store import Store
from app.store.conversations import UsageEntry
from app.studying.summary import scholar_prompt
from app.ui.assistant_controller import AssistantController, Refusal, Request
from app.ui.assistant_view import badge_text, confirm_dialog, render_panel, render_turn

if TYPE_CHECKING:
    from app.browser.closing import DialogCloser
    from app.ui.controller import Controller

RENDER_DELAY_S = 0.03  # coalesce streamed chunks into one redraw per frame or so


def _index(item_id: str | None) -> int:
    return int(item_id) if item_id and item_id.lstrip("-").isdigit() else -1


class AssistantPage(VoicePage, SettingsPage, Applies, Runs, Protocol):
    """What the assistant needs of the page (app.py's Page; session.py attaches the assistant)."""

    controller: Controller
    closer: DialogCloser


class Assistant:
    def __init__(self, page: AssistantPage) -> None:
        self.page = page
        self.panel = by_id("assistant")
        self.settings = SettingsStore()
        self.dialog = SettingsDialog(page, self.settings, self.render_panel)
        self.controller = AssistantController(self)
        # A coalesced redraw of the running turn; a full or immediate redraw cancels it, so a
        # late one never replaces the finished turn (and whatever the user focused in it).
        self._render_pending: asyncio.TimerHandle | None = None
        self.voice = VoiceGlue(self)

    # --- wiring -------------------------------------------------------------------------------

    def start(self) -> None:
        page, ctl = self.page, self.controller
        commands: dict[str, Command] = {
            "open-assistant": plain(self.open),
            "ai-settings": plain(self.dialog.open),
            "ai-open-settings": plain(self.dialog.open),
            "ai-close-settings": plain(page.closer.request),
            "ai-save-settings": plain(self.dialog.save),
            "ai-save-as-typed": plain(lambda: self.dialog.save(as_typed=True)),
            "ai-use-v1": lambda _item, data: self.dialog.use_v1((data or {}).get("value", "")),
            "ai-provider": plain(self.dialog.switch_provider),
            "ai-test-key": plain(lambda: page.spawn(self.dialog.test())),
            "ai-close-panel": plain(self.close),
            "ai-new-conversation": plain(self._new_conversation),
            "ai-toggle-conversations": plain(ctl.toggle_conversations),
            "ai-reopen": lambda item, _data: self._reopen(_index(item)),
            "ai-delete-conversation": lambda item, _data: ctl.delete_conversation(_index(item)),
            "ai-stop": plain(ctl.stop),
            "ai-retry": lambda item, _data: page.spawn(ctl.retry(_index(item))),
            "ai-save-note": lambda item, _data: ctl.save_note(_index(item)),
            "ai-accept": plain(lambda: ctl.answer(True)),
            "ai-decline": plain(lambda: ctl.answer(False)),
            "ai-send": plain(self.send_draft),
            "ai-badge": plain(self._update_badge),
            "ai-override": lambda _item, data: self._choose_agent((data or {}).get("text", "")),
            "study-ask-scholar": plain(self.ask_about_missed),
        }
        page.commands.update(commands)
        self.voice.start()
        page.listen(self.panel, "keydown", self._on_keydown)
        page.listen(page.dialog, "close", lambda _e: ctl.answer(False))
        page.listen(js.window, "online", lambda _e: self.render_panel())
        page.listen(js.window, "offline", lambda _e: self.render_panel())
        for element_id in ("assistant-button", "ai-settings-button"):
            by_id(element_id).disabled = False
        self.dialog.resume()

    # --- the host the controller drives -------------------------------------------------------

    @property
    def store(self) -> Store:
        return self.page.controller.store  # a follower tab that takes over gets a new store

    @property
    def online(self) -> bool:
        return bool(js.navigator.onLine)

    @property
    def configured(self) -> bool:
        return self.settings.configured

    @property
    def read_only(self) -> str | None:
        return self.page.controller.read_only

    def audio_options(self) -> AudioOptions:
        """For audio the provider hears or says (the assistant's voice, study's Say it): it
        counts against the daily cap and goes into the usage log beside agent turns."""
        return AudioOptions(counter=LocalCounter(), on_usage=self._log_audio)

    def _log_audio(self, usage: AudioUsage) -> None:
        self.store.conversations.log_usage(UsageEntry.model_validate(usage.entry_fields()))

    def client(self, on_wait: OnWait) -> ModelClient:
        return make_client(
            self.settings.settings, self.dialog.transport, counter=LocalCounter(), on_wait=on_wait
        )

    def view(self) -> View:
        where = self.page.controller.state.route
        return View(
            open_folder=self.open_folder(),
            selected_word=WordId(where.word_id) if where.word_id is not None else None,
            utc_offset_minutes=local_utc_offset(),
        )

    def open_folder(self) -> FolderId | None:
        folder = self.page.controller.state.route.folder_id
        return FolderId(folder) if folder is not None else None

    def show_confirmation(self, confirmation: Confirmation) -> None:
        dialog = self.page.dialog
        replace_children(dialog, confirm_dialog(confirmation))
        if not dialog.open:
            dialog.showModal()
        dialog.querySelector('[data-action="ai-decline"]').focus()  # the safe default
        request = self.controller.request
        if request is not None and request.spoken:
            self.voice.confirm_aloud(confirmation)

    def hide_confirmation(self) -> None:
        self.voice.confirmation_closed()
        if self.page.dialog.open:
            self.page.dialog.close()

    def open_settings(self) -> None:
        self.dialog.open()

    def toast(self, message: str, *, undo: bool = False) -> None:
        self.page.show_toast(message, undo=undo)

    def go(self, location: str) -> None:
        js.location.hash = location

    def study_hands_free(self, folder: FolderId) -> None:
        self.page.run("study", str(folder), {"mode": "hands-free"})

    def collection_changed(self) -> None:
        self.page.apply(self.page.controller.refresh())

    def render_panel(self) -> None:
        self._cancel_pending_turn()
        if self.panel.hidden:
            return
        state = self.controller.state
        box = by_id("ai-input")
        draft = str(box.value) if found(box) else ""
        focused = found(box) and js.document.activeElement == box
        conversations = self.store.conversations.recent() if state.show_conversations else ()
        replace_children(
            self.panel,
            *render_panel(
                state,
                configured=self.configured,
                online=self.online,
                draft=draft,
                conversations=conversations,
                usage=self.store.conversations.usage_summary(),
                voice=self.voice.bar(),
            ),
        )
        self.voice.redrawn()
        if focused:
            by_id("ai-input").focus()

    def render_turn(self, *, now: bool) -> None:
        if now:
            self._render_turn()
        elif self._render_pending is None:
            self._render_pending = asyncio.get_running_loop().call_later(
                RENDER_DELAY_S, self._render_turn
            )

    def _cancel_pending_turn(self) -> None:
        if self._render_pending is not None:
            self._render_pending.cancel()
            self._render_pending = None

    def _render_turn(self) -> None:
        self._cancel_pending_turn()
        turns = self.controller.state.turns
        target = by_id(f"ai-turn-{len(turns) - 1}")
        if turns and found(target):
            target.replaceWith(to_dom(render_turn(turns[-1], len(turns) - 1)))

    # --- the panel ----------------------------------------------------------------------------

    def open(self) -> None:
        if self.panel.hidden:
            self.panel.hidden = False
            by_id("assistant-button").setAttribute("aria-expanded", "true")
            self.render_panel()
        by_id("ai-input").focus()

    def close(self) -> None:
        self.panel.hidden = True
        button = by_id("assistant-button")
        button.setAttribute("aria-expanded", "false")
        button.focus()

    def send_draft(self) -> None:
        box = by_id("ai-input")
        prepared = self.controller.prepare(str(box.value))
        if isinstance(prepared, Refusal):
            # The question stays in the box, to send once that is sorted.
            self.controller.refuse(prepared)
        elif prepared is not None:
            box.value = ""
            if isinstance(prepared, Request):
                self.page.spawn(self.controller.run(prepared), now=True)

    def ask_about_missed(self) -> None:
        """From a study summary: the Scholar explains the words just missed (it only reads)."""
        study = self.page.controller.study
        summary = study.session.summary if study.session is not None else None
        if summary is None or not summary.missed:
            return
        if self.configured:
            self.open()
        self.page.spawn(self.controller.ask_scholar(scholar_prompt(summary.missed, study.title())))

    def _choose_agent(self, value: str) -> None:
        for choice in get_args(Override):
            if choice == value:
                self.controller.choose_agent(choice)
                self._update_badge()

    def _update_badge(self) -> None:
        badge, box = by_id("ai-badge"), by_id("ai-input")
        if found(badge) and found(box):
            badge.textContent = badge_text(str(box.value), self.controller.state.override)

    def _new_conversation(self) -> None:
        if self.controller.new_conversation():
            by_id("ai-input").focus()

    def _reopen(self, conversation_id: int) -> None:
        if self.controller.reopen(conversation_id):
            by_id("ai-input").focus()

    def _on_keydown(self, event: Any) -> None:
        if str(event.key) == "Escape" and not self.page.dialog.open:
            event.preventDefault()
            self.close()
            return
        if getattr(event.target, "id", "") != "ai-input" or str(event.key) != "Enter":
            return
        if event.shiftKey or event.isComposing:
            return  # Shift+Enter is a new line
        event.preventDefault()
        self.send_draft()
