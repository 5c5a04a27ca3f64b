"""Where the assistant hears you: the page's recognition ladder (app/browser/hearing.py) for
the speech language in the Voice settings, and the Voice dialog's parts of it: the sentence of
where the audio goes, asked again after the dialog is saved, and the button that downloads
on-device recognition.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from app.browser.page_parts import Spawns, Toasts
from app.browser.recognition import install
from app.voice.ladder import Rung

if TYPE_CHECKING:
    from app.browser.hearing import Hearing
    from app.browser.pronounce import SpeechGlue

INSTALL_FAILED = (
    "Speech recognition could not be downloaded to this device (it needs the network once). "
    "Try again later."
)


class LadderPage(Spawns, Toasts, Protocol):
    """What the assistant's ladder needs of the page: the voice settings and their dialog,
    and the page's recognition ladder."""

    dialog: Any

    @property
    def speech(self) -> SpeechGlue: ...

    @property
    def hearing(self) -> Hearing: ...


class LadderAssistant(Protocol):
    @property
    def page(self) -> LadderPage: ...


class VoiceLadder:
    def __init__(self, assistant: LadderAssistant, changed: Callable[[], None]) -> None:
        self.page = assistant.page
        self._changed = changed  # what `rung` says may differ now

    def start(self) -> None:
        page = self.page
        settings = page.speech.voice
        settings.listening = self.rung
        settings.on_saved = lambda: page.spawn(page.hearing.check(self.lang))
        settings.install = lambda: page.spawn(self._install())
        page.hearing.watch(self._changed)
        page.spawn(page.hearing.check(self.lang))

    @property
    def lang(self) -> str:
        return self.page.speech.voice.settings.speech_lang

    def rung(self) -> Rung:
        """How the user's voice becomes text right now (app.voice.ladder)."""
        return self.page.hearing.rung(self.lang)

    async def _install(self) -> None:
        """Download on-device recognition (from the Voice dialog's button, a click)."""
        lang = self.lang
        if await install(lang):
            self.page.show_toast(f"Speech recognition for {lang} is on this device now.")
        else:
            self.page.show_toast(INSTALL_FAILED)
        await self.page.hearing.check(lang)
        if self.page.dialog.open:
            await self.page.speech.voice.open()
