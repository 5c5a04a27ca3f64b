"""Where the assistant hears you: the rung of app.voice.ladder for the page as it is now.

Keeps what the ladder needs that only the browser knows: whether recognition can run on this
device for the speech language (asked at start and after the Voice dialog is saved), and whether
the browser's recogniser has failed so the provider stands in. The Voice dialog's download button
installs on-device recognition here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import js

from app.browser.page_parts import Spawns, Toasts
from app.browser.recognition import availability, install, supported
from app.voice.ladder import Means, OnDevice, Rung, choose, transcriber

if TYPE_CHECKING:
    from app.browser.pronounce import SpeechGlue
    from app.browser.settings_store import SettingsStore

INSTALL_FAILED = (
    "Speech recognition could not be downloaded to this device (it needs the network once). "
    "Try again later."
)


class SpeakingPage(Protocol):
    """What `rung_now` needs of the page (app.py's Page): the voice settings."""

    @property
    def speech(self) -> SpeechGlue: ...


class Transcribing(Protocol):
    """What `rung_now` needs of the assistant (app/browser/assistant.py): its provider."""

    settings: SettingsStore

    @property
    def configured(self) -> bool: ...


class LadderPage(SpeakingPage, Spawns, Toasts, Protocol):
    """What the assistant's ladder needs of the page: the voice settings and their dialog."""

    dialog: Any


class LadderAssistant(Transcribing, Protocol):
    @property
    def page(self) -> LadderPage: ...


class VoiceLadder:
    def __init__(self, assistant: LadderAssistant, changed: Callable[[], None]) -> None:
        self.assistant = assistant
        self.page = assistant.page
        self._changed = changed  # what `rung` says may differ now
        self.on_device: OnDevice = "unsupported"
        self.service_failed = False  # the browser's recogniser failed: the provider stands in

    def start(self) -> None:
        page = self.page
        settings = page.speech.voice
        settings.listening = self.rung
        settings.on_saved = lambda: page.spawn(self._check_on_device())
        settings.install = lambda: page.spawn(self._install())
        page.spawn(self._check_on_device())

    @property
    def lang(self) -> str:
        return self.page.speech.voice.settings.speech_lang

    def rung(self) -> Rung:
        """How the user's voice becomes text right now (app.voice.ladder)."""
        return rung_now(self.page, self.assistant, self.on_device, self.service_failed)

    async def _check_on_device(self) -> None:
        self.on_device = await availability(self.lang)
        self._changed()

    async def _install(self) -> None:
        """Download on-device recognition (from the Voice dialog's button, a click)."""
        lang = self.lang
        if await install(lang):
            self.page.show_toast(f"Speech recognition for {lang} is on this device now.")
        else:
            self.page.show_toast(INSTALL_FAILED)
        await self._check_on_device()
        if self.page.dialog.open:
            await self.page.speech.voice.open()


def rung_now(
    page: SpeakingPage, assistant: Transcribing | None, on_device: OnDevice, service_failed: bool
) -> Rung:
    """How speech becomes text right now, from what the browser offers and the user's
    settings; the provider counts once the assistant (which holds its settings) has loaded.
    The assistant's voice and study's Say it both ask here."""
    return choose(
        Means(
            recognition=supported(),
            on_device=on_device,
            on_device_only=page.speech.voice.settings.on_device_only,
            provider=None
            if assistant is None
            else transcriber(assistant.settings.settings, configured=assistant.configured),
            online=bool(js.navigator.onLine),
            service_failed=service_failed,
        )
    )
