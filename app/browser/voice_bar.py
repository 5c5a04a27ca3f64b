"""The voice bar on the page, kept up to date: the live part (status, transcript), whether it
listens, the hands-free toggle, and the live level (app/browser/voice_level.py).

Nothing changes on the page unless what the listening machine shows has changed.
"""

from __future__ import annotations

from collections.abc import Callable

from app.browser.dom import by_id, found, replace_children
from app.browser.microphone import Microphone
from app.browser.voice_level import LevelMeter
from app.ui.voice_bar_view import LIVE, voice_live
from app.voice.listening import View


class VoiceBar:
    def __init__(self, mic: Microphone) -> None:
        self.level = LevelMeter(mic)
        self._shown: View | None = None

    def redrawn(self) -> None:
        """The bar was drawn again: the live part and the level go into the new bar."""
        self.stale()
        self.level.redrawn()

    def stale(self) -> None:
        """What the live part says of where listening happens changed: the next `show` draws
        it whatever the machine shows."""
        self._shown = None

    def show(self, shown: View, *, conversation: bool, where: Callable[[], str]) -> None:
        if shown == self._shown:
            return
        self._shown = shown
        bar = by_id("ai-voice")
        if not found(bar):
            return
        bar.dataset.listening = "true" if shown.indicator else "false"
        bar.dataset.hearing = "true" if shown.hearing else "false"
        replace_children(by_id(LIVE), *voice_live(shown, where=where()))
        toggle = bar.querySelector('[data-action="ai-conversation"]')
        if found(toggle):
            toggle.setAttribute("aria-pressed", "true" if conversation else "false")
        # The live level while the microphone listens or the app speaks.
        self.level.want(shown.indicator or shown.phase == "speaking")
