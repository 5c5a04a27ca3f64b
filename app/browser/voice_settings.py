"""Voice settings in the browser: kept in localStorage, and the "Voice" dialog that edits them.

The form is app/ui/voice_settings_view.py. Typing a language redraws the list of voices for
it, the sliders show their value as they move, "Try it" speaks a sample with the values as
set (saved or not), and Save keeps them. Reading never fails: damaged or blocked storage
gives defaults in the browser's own language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import js

from app.browser.commands import Command, plain
from app.browser.dom import by_id, form_fields, found, replace_children
from app.browser.local_storage import get, put
from app.browser.page_parts import Spawns, Toasts
from app.browser.speaker import Speaker
from app.domain import InvalidInput
from app.speech.languages import sample_sentence
from app.speech.outcome import SpeechError
from app.speech.settings import VoiceSettings, parse_settings
from app.speech.voices import primary
from app.ui.voice_settings_view import (
    VoiceForm,
    settings_from_fields,
    slider_text,
    voice_choice,
    voice_dialog,
)

if TYPE_CHECKING:
    from app.browser.forms import Forms
    from app.voice.ladder import Rung

SETTINGS_KEY = "lexical-voice-settings"


def load_settings() -> VoiceSettings:
    return parse_settings(get(SETTINGS_KEY), str(getattr(js.navigator, "language", "") or ""))


def save_settings(settings: VoiceSettings) -> None:
    put(SETTINGS_KEY, settings.model_dump_json())


class VoiceDialogPage(Spawns, Toasts, Protocol):
    """What the Voice dialog needs of the page (app.py's Page)."""

    dialog: Any
    forms: Forms  # where a setting refused is said


class VoiceDialog:
    def __init__(self, page: VoiceDialogPage, speaker: Speaker) -> None:
        self.page = page
        self.speaker = speaker
        self.settings = load_settings()
        # Set by the assistant's voice once it is loaded: how it listens, and what a change of
        # settings (or the download of on-device recognition) means for that.
        self.listening: Callable[[], Rung] | None = None
        self.on_saved: Callable[[], None] = lambda: None
        self.install: Callable[[], None] = lambda: None

    def commands(self) -> dict[str, Command]:
        """The dialog's own actions, run by the page instead of the controller."""
        return {
            "voice-settings": plain(lambda: self.page.spawn(self.open())),
            "voice-lang": lambda _id, fields: self._language_typed((fields or {}).get("text", "")),
            "voice-slider": lambda _id, _fields: self._slid(),
            "voice-try": plain(lambda: self.page.spawn(self.try_voice())),
            "save-voice": lambda _id, fields: self.save(fields or {}),
            # Looked up at the click: the assistant's voice sets `install` once it loads.
            "voice-install": plain(lambda: self.install()),  # noqa: PLW0108
        }

    async def open(self) -> None:
        voices = await self.speaker.ready_voices()
        dialog = self.page.dialog
        listening = self.listening() if self.listening is not None else None
        replace_children(dialog, voice_dialog(VoiceForm.of(self.settings, voices, listening)))
        if not dialog.open:
            dialog.showModal()
        by_id("voice-lang").focus()

    def _language_typed(self, text: str) -> None:
        slot = by_id("voice-name-slot")
        if not found(slot):
            return
        typed = self.settings.model_copy(update={"speech_lang": text.strip()})
        replace_children(slot, voice_choice(VoiceForm.of(typed, self.speaker.voices)))
        error = by_id("voice-settings-form").querySelector('[data-role="form-error"]')
        if found(error):
            error.hidden = True  # about the language as it was before this typing

    def _slid(self) -> None:
        for name in ("rate", "pitch"):
            slider, shown = by_id(f"voice-{name}"), by_id(f"voice-{name}-value")
            if found(slider) and found(shown):
                shown.textContent = slider_text(name, str(slider.value))

    def _fields(self) -> VoiceSettings | None:
        form = by_id("voice-settings-form")
        if not found(form):
            return None
        try:
            return settings_from_fields(form_fields(form), self.settings)
        except InvalidInput as exc:
            self.page.forms.show_error(exc.message)
            return None

    async def try_voice(self) -> None:
        settings = self._fields()
        if settings is None:
            return
        lang = settings.speech_lang
        self.speaker.cancel()
        try:
            await self.speaker.speak(sample_sentence(primary(lang)), lang, settings)
        except SpeechError as exc:
            self.page.forms.show_error(exc.message)

    def save(self, fields: dict[str, str]) -> None:
        try:
            settings = settings_from_fields(fields, self.settings)
        except InvalidInput as exc:
            self.page.forms.show_error(exc.message)
            return
        self.settings = settings
        save_settings(settings)
        self.page.dialog.close()
        self.on_saved()
        self.page.show_toast("Voice settings saved.")
