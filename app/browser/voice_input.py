"""The talk button and keys for the assistant: what a person does, as listening-machine events.

Holding the talk button (pointer, or Space/Enter on it) or Ctrl+M is a press; letting go, a
pointer cancel or the window losing focus is a release; Escape stops the voice before it closes
anything. Key repeats while held are swallowed. What a press does is the caller's (`press`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js

from app.browser.dom import found
from app.browser.recognition import now
from app.voice.listening import Event, Listener, Release, Stop

TALK_BUTTON = "ai-talk"
BUTTON_KEYS = (" ", "Enter")
RELEASE_KEYS = ("m", "M", "Control", *BUTTON_KEYS)

Listen = Callable[..., None]


class TalkInput:
    def __init__(
        self,
        state: Callable[[], Listener],
        feed: Callable[[Event], None],
        press: Callable[[], None],
    ) -> None:
        self._state, self._feed, self._press = state, feed, press
        self._key_down = False

    def start(self, listen: Listen, panel: Any) -> None:
        listen(panel, "pointerdown", self._on_pointerdown)
        listen(panel, "pointerup", self._on_pointerup)
        listen(panel, "pointercancel", self._on_pointerup)
        listen(js.document, "keydown", self._on_keydown, capture=True)
        listen(js.document, "keyup", self._on_keyup, capture=True)
        listen(js.window, "blur", lambda _e: self._release())

    def _release(self) -> None:
        self._key_down = False
        if self._state().held:
            self._feed(Release(now()))

    def _on_pointerdown(self, event: Any) -> None:
        hit = hasattr(event.target, "closest")
        target = event.target.closest(f"#{TALK_BUTTON}") if hit else None
        if found(target) and int(event.button) == 0:
            event.preventDefault()
            target.setPointerCapture(event.pointerId)  # the release arrives even off the button
            self._press()

    def _on_pointerup(self, _event: Any) -> None:
        if self._state().held and not self._key_down:
            self._release()

    def _on_keydown(self, event: Any) -> None:
        key = str(event.key)
        if key == "Escape" and self._state().phase != "idle":
            event.preventDefault()
            event.stopPropagation()  # Escape stops the voice before it closes anything
            self._feed(Stop(now()))
            return
        talk_key = bool(event.ctrlKey) and key.lower() == "m"
        talk_button = key in BUTTON_KEYS and getattr(event.target, "id", "") == TALK_BUTTON
        if (talk_key or talk_button) and not event.repeat:
            event.preventDefault()
            self._key_down = True
            self._press()
        elif talk_key or talk_button:
            event.preventDefault()  # a repeat while held

    def _on_keyup(self, event: Any) -> None:
        if self._key_down and str(event.key) in RELEASE_KEYS:
            event.preventDefault()
            self._release()
