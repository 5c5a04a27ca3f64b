"""The live level in the voice bar: the microphone opened and shown while it is wanted.

The bar asks for the level while the microphone listens or the app speaks, and for none when the
turn is over; opening the microphone takes a while, so the level catches up one change at a time.
"""

from __future__ import annotations

import asyncio

import js

from app.browser.dom import found
from app.browser.microphone import Microphone, MicrophoneError
from app.ui.voice_meter import METER


class LevelMeter:
    def __init__(self, mic: Microphone) -> None:
        self.mic = mic
        self._wanted = self._shown = False
        self._task: asyncio.Task[None] | None = None

    def want(self, on: bool) -> None:
        """Show the live level (`on`) or close the microphone, once what runs has settled."""
        self._wanted = on
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._settle())

    def redrawn(self) -> None:
        """The bar was drawn again: its meter is new and shows nothing yet."""
        self._shown = False

    async def _settle(self) -> None:
        """Bring the level to what is wanted, one change at a time: a turn may end while the
        microphone opens. The visualiser is a nicety, so a microphone it cannot open is left
        to the recogniser to report."""
        while True:
            wanted = self._wanted
            if wanted and not self._shown:
                meter = js.document.querySelector(METER)
                try:
                    if not self.mic.is_open:
                        await self.mic.open()
                    if found(meter):
                        await self.mic.show(meter)
                        self._shown = True
                except MicrophoneError as error:
                    js.console.info(f"No live level: {error}")
                    return
            elif not wanted:
                self.mic.hide()
                self.mic.close()
                self._shown = False
            if self._wanted == wanted:
                return
